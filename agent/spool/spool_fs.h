// The spool's file system calls (docs/architecture.md "Spool"): one
// directory, opened once without following a link; every file in it is
// reached relative to that directory's fd (openat, unlinkat, renameat), never
// following a link (O_NOFOLLOW), close-on-exec. Failures throw SpoolError
// naming the file and strerror.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/unique_fd.h"

namespace schedrig::spool {

// An owned file descriptor (common/unique_fd.h).
using Fd = UniqueFd;

// Creates `dir` (mode 0700; missing parents as std::filesystem makes them)
// unless it exists, and opens it O_DIRECTORY|O_NOFOLLOW. Throws
// SpoolError(kUsage) when it cannot be made or is not a directory (a link),
// or may not be trusted (dir_trust.h: owner, mode).
Fd open_spool_dir(const std::string& dir);

// Opens `name` in `dirfd` with `flags` | O_NOFOLLOW | O_CLOEXEC (mode 0600
// when created). Returns Fd(-1) with errno set on failure.
Fd open_in(int dirfd, const std::string& name, int flags);

// What open_trusted found: an open regular file, or why not. `why` is empty
// when the open failed for another reason (errno in `err`, e.g. ENOENT).
struct TrustedOpen {
  Fd fd;
  std::string why;       // "a FIFO, not a regular file", "owned by uid 1000, ..."
  bool foreign = false;  // set aside for its owner, not for its type
  int err = 0;
};

// Opens `name` in `dirfd` for reading without following a link and
// without blocking (O_RDONLY|O_NOFOLLOW|O_NONBLOCK|O_CLOEXEC), when it is a
// regular file owned by this user or root and writable by neither group nor
// other (a FIFO would hang open(), a planted or rewritten file would be
// replayed under this agent's token). A link is refused like a FIFO (ELOOP).
TrustedOpen open_trusted(int dirfd, const std::string& name);

// fdatasync(2); throws SpoolError "cannot sync WHAT: reason".
void sync_data(int fd, const std::string& what);

// fsync(2) of the directory itself (after a file is made or renamed in it).
void sync_dir(int dirfd, const std::string& dir);

// Writes all of `bytes` at `offset` (pwrite, retrying short writes and
// EINTR). Returns 0, or the errno of the failure.
int write_all_at(int fd, std::string_view bytes, std::uint64_t offset);

// The names of the directory's entries (no "." or "..").
std::vector<std::string> list_names(int dirfd, const std::string& dir);

// unlinkat; a missing file is not an error.
void remove_in(int dirfd, const std::string& name);

// renameat within the directory.
void rename_in(int dirfd, const std::string& from, const std::string& to);

// Cuts `name` to `size` bytes (opened O_WRONLY|O_NOFOLLOW, ftruncate).
void cut_file(int dirfd, const std::string& name, std::uint64_t size);

}  // namespace schedrig::spool
