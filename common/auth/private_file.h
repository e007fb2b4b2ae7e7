// Files that hold secrets or grant access (internal to schedrig_auth): opened
// without following a symbolic link, refused unless regular and owner-only,
// read with a size bound. Used for client token files and the tokens file.
#pragma once

#include <cstddef>
#include <string>

#include "common/unique_fd.h"

namespace schedrig::auth::detail {

using schedrig::UniqueFd;  // common/unique_fd.h

// Opens `path` with `flags` | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK (0600 when
// O_CREAT creates it) and checks the open file: regular, mode & 077 == 0,
// owned by this user or root (common/file_owner.h).
// Throws schedrig::Error(kUsage) "LABEL: reason" (a link, a FIFO, mode 0644...).
UniqueFd open_private_file(const std::string& path, int flags, const std::string& label);

// Reads `fd` from its offset to EOF (waiting on a non-blocking pipe). Throws
// Error(kUsage) "LABEL: larger than N bytes" past `max_bytes`, or on a read error.
std::string read_bounded(int fd, std::size_t max_bytes, const std::string& label);

}  // namespace schedrig::auth::detail
