// Whose state dir and spool to believe (docs/architecture.md "Spool"): the
// agent runs as root and replays what the spool holds under its own token,
// and reports the run STATE/current-run names. A directory another user owns
// or may write to lets that user plant those files, so STATE and
// STATE/spool must belong to this user or root and be writable by no one
// else; a file in them must belong to this user or root (common/file_owner.h).
#pragma once

#include <sys/stat.h>

#include <optional>
#include <string>

namespace schedrig::spool {

// Nothing when the directory `st` describes may be trusted (owned by the
// euid or root, not writable by group or other); else the reason with the
// fix: "owned by uid 1000, mode 0777: ...; chown root and chmod 0700 it".
std::optional<std::string> untrusted_dir(const struct stat& st);

// Throws SpoolError(kUsage) "WHAT DIR: <untrusted_dir reason>" when the
// directory open as `dirfd` may not be trusted.
void check_trusted_dir(int dirfd, const std::string& what, const std::string& dir);

}  // namespace schedrig::spool
