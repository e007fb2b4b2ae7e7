// The flags every command that talks to `schedrig serve` takes
// (docs/architecture.md "Command lines"): --server URL, --token-file F,
// --ca F, each falling back to SCHEDRIG_SERVER / SCHEDRIG_TOKEN_FILE /
// SCHEDRIG_CA.
#pragma once

#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "host/client/api_client.h"

namespace schedrig::host {

struct ServerOptions {
  std::string server, token_file, ca;
};

// Adds --server, --token-file and --ca to `cmd`, stored in `o`.
void add_server_options(CLI::App& cmd, ServerOptions& o);

// For commands that read a local store too (results, compare, agents): true
// when they ask the server: --server given, or no --db and SCHEDRIG_SERVER
// set. Throws CliError(kUsage) when both --server and --db are given.
bool use_server(const ServerOptions& o, const std::string& db);

// The client for `o` (client::server_target: flags, then the environment).
// Throws schedrig::Error(kUsage) when the URL or the token file is missing or bad.
std::unique_ptr<client::ApiClient> make_api_client(const ServerOptions& o);

}  // namespace schedrig::host
