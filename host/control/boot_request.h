// The body of POST /api/v1/agents/ID/boot (docs/architecture.md "HTTP
// API"): {"kernel": NAME, "reason": TEXT}. Only a kernel's name travels;
// the agent's own configuration says how its box boots it.
#pragma once

#include <string>

namespace schedrig::control {

inline constexpr std::size_t kMaxBootReasonBytes = 512;

struct BootRequest {
  std::string kernel;  // common/kernel_name.h
  std::string reason;  // printable, at most kMaxBootReasonBytes; may be empty
};

// Parses `body`. Throws ApiError(400): not JSON, not an object, an unknown
// key, no kernel, a kernel that is not a kernel name, a reason that is not
// a string or is too long.
BootRequest parse_boot_request(const std::string& body);

}  // namespace schedrig::control
