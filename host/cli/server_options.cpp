#include "host/cli/server_options.h"

#include "common/cli_error.h"
#include "host/client/server_target.h"

namespace schedrig::host {

void add_server_options(CLI::App& cmd, ServerOptions& o) {
  cmd.add_option("--server", o.server,
                 "the server: http://HOST:PORT or https://HOST:PORT (default $SCHEDRIG_SERVER)");
  cmd.add_option("--token-file", o.token_file,
                 "file holding an operator token, mode 0600 (`schedrig token new --operator "
                 "NAME`; default $SCHEDRIG_TOKEN_FILE)");
  cmd.add_option("--ca", o.ca,
                 "PEM CA certificate(s) to trust for https (default $SCHEDRIG_CA, else the "
                 "system's store)");
}

bool use_server(const ServerOptions& o, const std::string& db) {
  if (!o.server.empty() && !db.empty()) {
    throw CliError(ErrorKind::kUsage, "give --server or --db, not both");
  }
  if (!o.server.empty()) return true;
  return db.empty() && !client::flag_or_env("", "SCHEDRIG_SERVER").empty();
}

std::unique_ptr<client::ApiClient> make_api_client(const ServerOptions& o) {
  return std::make_unique<client::ApiClient>(client::server_target(o.server, o.token_file, o.ca));
}

}  // namespace schedrig::host
