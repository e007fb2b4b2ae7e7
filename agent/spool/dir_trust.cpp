#include "agent/spool/dir_trust.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "agent/spool/spool_error.h"
#include "common/file_owner.h"

namespace schedrig::spool {

std::optional<std::string> untrusted_dir(const struct stat& st) {
  const bool foreign = untrusted_owner(st.st_uid).has_value();
  const bool shared = (st.st_mode & (S_IWGRP | S_IWOTH)) != 0;
  if (!foreign && !shared) return std::nullopt;
  return fmt::format(
      "owned by uid {}, mode {:04o}: {}, so another local user could plant files in it; "
      "chown root and chmod 0700 it (or the user the agent runs as, uid {})",
      st.st_uid, st.st_mode & 07777,
      foreign ? "not by this user or root" : "writable by group or other", ::geteuid());
}

void check_trusted_dir(int dirfd, const std::string& what, const std::string& dir) {
  struct stat st {};
  if (::fstat(dirfd, &st) != 0)
    throw SpoolError(ErrorKind::kUsage,
                     fmt::format("{} {}: cannot stat it: {}", what, dir, std::strerror(errno)));
  if (const auto why = untrusted_dir(st))
    throw SpoolError(ErrorKind::kUsage, fmt::format("{} {}: {}", what, dir, *why));
}

}  // namespace schedrig::spool
