// Whose secrets to believe (docs/architecture.md "Tokens"): a file that holds
// a token or a private key grants access, so whoever can rewrite it can
// become an agent or an operator. Like OpenSSH's StrictModes, such a file
// must belong to the user reading it or to root.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>

namespace schedrig {

// Nothing when a secret file owned by `owner` may be trusted by this process
// (owner == geteuid() or owner == 0); else the reason, e.g. "owned by uid
// 1000, not by this user (uid 0) or root; chown it".
std::optional<std::string> untrusted_owner(uid_t owner);

}  // namespace schedrig
