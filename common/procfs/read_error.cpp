#include "common/procfs/read_error.h"

#include <cstring>
#include <utility>

namespace schedrig::procfs {

std::string errno_text(int err) {
  const char* name = strerrorname_np(err);
  return std::string(std::strerror(err)) + " (" + (name ? name : "?") + ")";
}

ReadError::ReadError(std::string path, int err, const std::string& detail)
    : Error(ErrorKind::kUnreachable,
            "cannot read " + path + ": " + (detail.empty() ? errno_text(err) : detail)),
      path_(std::move(path)),
      errno_(err) {}

}  // namespace schedrig::procfs
