#include "common/file_owner.h"

#include <unistd.h>

#include <fmt/format.h>

namespace schedrig {

std::optional<std::string> untrusted_owner(uid_t owner) {
  const uid_t self = ::geteuid();
  if (owner == self || owner == 0) return std::nullopt;
  return fmt::format("owned by uid {}, not by this user (uid {}) or root; chown it", owner, self);
}

}  // namespace schedrig
