#include "agent/session/host_commands.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "common/envelope_codec.h"
#include "common/printable.h"

namespace schedrig::agent {

namespace v1 = schedrig::v1;

void handle_command(const v1::Envelope& cmd, const CommandHandlers& h, SeenRuns& seen) {
  if (cmd.has_start_run()) {
    if (seen.first(cmd.start_run().run_id())) return h.run(cmd.start_run());
    spdlog::debug("StartRun for run {} again: this instance already has it; ignored",
                  printable(cmd.start_run().run_id()));
  } else if (cmd.has_boot() && h.boot) {
    h.boot(cmd.boot());
  } else if (cmd.has_error()) {
    spdlog::warn("host reports an error: {}", printable(cmd.error().message()));
  } else if (!cmd.has_abort() && !cmd.has_ping()) {  // e.g. a Hello sent back
    const std::string what = fmt::format("agent does not take '{}' messages", body_name(cmd));
    spdlog::warn("host sent a message the agent does not take: {}", body_name(cmd));
    h.send(error_envelope(v1::ERROR_UNEXPECTED, what, ""));
  }
}

v1::Envelope error_envelope(v1::ErrorCode code, const std::string& message,
                            const std::string& run_id) {
  v1::Envelope env;
  env.mutable_error()->set_code(code);
  env.mutable_error()->set_message(message);
  env.mutable_error()->set_run_id(run_id);
  return env;
}

}  // namespace schedrig::agent
