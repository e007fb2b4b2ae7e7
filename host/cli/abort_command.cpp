// `schedrig abort RUN --server URL`: stop a run on the server
// (docs/architecture.md "HTTP API", POST /api/v1/runs/ID/abort): a queued run
// leaves the queue, a running one is told to stop (its agent restores the
// knobs and finishes it `aborted`).
#include <iostream>

#include <fmt/format.h>

#include "common/exit_codes.h"
#include "common/printable.h"
#include "host/cli/commands.h"
#include "host/cli/server_options.h"
#include "host/client/api_paths.h"
#include "host/client/json_read.h"

namespace schedrig::host {
namespace {

struct AbortOptions {
  std::string run;
  ServerOptions server;
};

void run_abort(const AbortOptions& o) {
  const nlohmann::json answer =
      make_api_client(o.server)->post_json(client::abort_path(o.run), nlohmann::json::object());
  const auto [run_id, state] = client::reading("abort", [&] {
    return std::pair{answer.at("run_id").get<std::string>(), answer.at("state").get<std::string>()};
  });
  const char* note = state == "aborting" ? ": its agent stops it and restores the knobs" : "";
  std::cout << printable(fmt::format("run {} {}", run_id, state)) << note << "\n";
}

}  // namespace

void add_abort_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<AbortOptions>();
  auto* cmd = app.add_subcommand(
      "abort",
      "abort a run on the server: a queued run is taken off the queue, a running one is "
      "stopped by its agent (knobs restored, run `aborted`); a run that ended is an error");
  cmd->add_option("run", o->run, "run_id or a unique prefix of it (>= 8 characters)")->required();
  add_server_options(*cmd, o->server);
  cmd->callback([o, &exit_code] {
    run_abort(*o);
    exit_code = kExitOk;
  });
}

}  // namespace schedrig::host
