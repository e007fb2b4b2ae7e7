// A directory a root process may keep its lock and state files in
// (docs/architecture.md "Runner safety": the run lock, the knob lock):
// nobody but its owner (this euid or root) can create, replace or plant a
// link in it.
#pragma once

#include <sys/stat.h>

#include <stdexcept>
#include <string>

namespace schedrig {

// The directory cannot be trusted or opened. what() names the directory,
// what is wrong (owner uid, mode) and the fix.
class UntrustedDir : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Opens `dir` (O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC: the last component may
// not be a link), creating it with mode 0755 (and missing parents) first
// when absent, then checks with fstat that it is owned by this process's
// euid or by root and is not group- or other-writable. Returns the fd (the
// caller closes it). Throws UntrustedDir.
int open_trusted_dir(const std::string& dir);

// Opens `base`/`rel` (rel relative, no ".." component) as open_trusted_dir
// does, but follows no link below `base`: each component of `rel` is opened
// with openat O_DIRECTORY | O_NOFOLLOW from the one before (and made 0755
// with mkdirat when missing), so a link at ROOT/run cannot move the
// directory out of `base`. `base` itself is followed (the caller chose it).
// The last directory is checked as open_trusted_dir checks. Throws UntrustedDir.
int open_trusted_dir_under(const std::string& base, const std::string& rel);

// Checks every directory above `dir` (its real path, links resolved, up to
// /): each must be owned by root or this euid and not writable by group or
// other unless sticky (/tmp), so that nobody else can rename `dir` away and
// put a link or a directory of theirs in its place. Throws UntrustedDir
// naming the first that fails.
void check_trusted_ancestors(const std::string& dir);

}  // namespace schedrig
