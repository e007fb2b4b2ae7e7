// How `schedrig-agent connect` settles its settings (docs/architecture.md
// "Command lines"): a flag given on the command line, then the environment
// (SCHEDRIG_AGENT_TOKEN_FILE, SCHEDRIG_CA), then the --config file, then the
// default. The token comes from --token-fd N (read to EOF, then closed) or a
// token file (common/auth/token.h); it is never taken from argv.
#pragma once

#include <array>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "agent/session/session.h"

namespace schedrig::agent {

// The keys `connect --config F` knows; anything else is an error.
inline constexpr std::array<std::string_view, 12> kConnectConfigKeys{
    "url",     "id",         "token_file",      "ca",           "connect_timeout_s",
    "root",    "state_dir",  "give_up_after_s", "spool_max_mb", "tools",
    "kernels", "bisect_deny"};
// The keys whose value is a mapping: tools (NAME: PATH, agent/tools/tool_paths.h).
inline constexpr std::array<std::string_view, 1> kConnectConfigMapKeys{"tools"};
// The keys read as a whole section: kernels (agent/boot/kernel_table.h) and
// bisect_deny (a list of knob names, sent in Hello: docs/bisect-knobs.md).
inline constexpr std::array<std::string_view, 2> kConnectConfigSectionKeys{"kernels",
                                                                           "bisect_deny"};
// bisect_deny: at most this many names, each of [A-Za-z0-9._/-], 1-128 bytes.
inline constexpr std::size_t kMaxBisectDeny = 256;
inline constexpr std::size_t kMaxBisectDenyNameBytes = 128;

// `connect`'s flags as parsed, defaults where not given.
struct ConnectFlags {
  std::string url;
  std::string id;
  std::string token_file;
  int token_fd = -1;  // -1 = not given
  std::string ca;
  std::string config;
  double connect_timeout_s = 10;
  double give_up_after_s = 0;  // 0 = never
  double spool_max_mb = 256;
  StateOptions state;
  std::vector<std::string> tools;  // --tool NAME=PATH, each winning over the config's entry
  std::set<std::string, std::less<>> given;  // what the command line set: "url", "--id", ...
};

// The session `flags` describe. Reads (and closes) the token fd first, then
// the config file and the token file. Throws schedrig::Error(kUsage): no
// URL, no token, an invalid --id, a bad config file or value ("F:LINE: ..."),
// a token file or fd refused by auth::read_token_file / read_token_fd, a
// tools: entry or --tool that ToolPaths refuses ("F:LINE: key
// 'tools.sh': tools: 'sh' is not a tool schedrig runs ..."), a kernels:
// entry KernelTable refuses ("F:LINE: kernels.NAME: ..."), a bisect_deny:
// that is not a list of knob names ("F:LINE: bisect_deny[2]: ...").
SessionOptions connect_session_options(const ConnectFlags& flags);

}  // namespace schedrig::agent
