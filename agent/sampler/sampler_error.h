// What the sampler throws (docs/architecture.md "Command lines": errors by
// kind): a /proc source it must have cannot be opened or read
// (ErrorKind::kUnreachable, with the errno), or a source's text does not
// parse (ErrorKind::kFailed, errno 0). Callers decide on kind() and
// errno_value(), never on what().
#pragma once

#include <string>

#include "common/error.h"

namespace schedrig::sampler {

class SamplerError : public schedrig::Error {
 public:
  SamplerError(ErrorKind kind, const std::string& message, int err = 0)
      : Error(kind, message), errno_value_(err) {}
  int errno_value() const { return errno_value_; }

 private:
  int errno_value_;
};

// Unparsable text from a /proc source: kFailed.
inline SamplerError parse_error(const std::string& message) {
  return SamplerError(ErrorKind::kFailed, message);
}

}  // namespace schedrig::sampler
