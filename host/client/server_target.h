// Which server the CLI talks to and how it proves who it is
// (docs/architecture.md "Command lines": --server, --token-file, --ca).
#pragma once

#include <string>

namespace schedrig::client {

// One `schedrig serve` as the operator's commands reach it.
struct ServerTarget {
  std::string url;      // http[s]://HOST:PORT (ws:// and wss:// accepted), as given
  std::string token;    // the operator's bearer token (never printed)
  std::string ca_file;  // PEM CA bundle to trust for https; "" = the system's store
};

// The target from the flags, each falling back to its environment variable
// when empty: `url_flag` to SCHEDRIG_SERVER, `token_file_flag` to
// SCHEDRIG_TOKEN_FILE, `ca_flag` to SCHEDRIG_CA. The token is read with
// auth::read_token_file (0600, first line). Throws schedrig::Error(kUsage)
// when no URL or no token file is given, the URL does not parse
// (parse_server_url), or the token file cannot be used.
ServerTarget server_target(const std::string& url_flag, const std::string& token_file_flag,
                           const std::string& ca_flag);

// `flag` when non-empty, else the environment variable `env` ("" when unset).
std::string flag_or_env(const std::string& flag, const char* env);

}  // namespace schedrig::client
