#include "common/wire_names.h"

namespace schedrig {

std::string status_name(v1::Status status) {
  switch (status) {
    case v1::STATUS_OK:
      return "ok";
    case v1::STATUS_FAILED:
      return "failed";
    case v1::STATUS_ABORTED:
      return "aborted";
    default:
      return "unspecified";
  }
}

std::string stored_status_name(v1::Status status) {
  return status == v1::STATUS_UNSPECIFIED ? "failed" : status_name(status);
}

std::string direction_name(v1::Direction direction) {
  switch (direction) {
    case v1::HIGHER_IS_BETTER:
      return "higher_is_better";
    case v1::LOWER_IS_BETTER:
      return "lower_is_better";
    default:
      return "";
  }
}

}  // namespace schedrig
