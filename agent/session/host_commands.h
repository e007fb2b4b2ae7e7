// What the agent does with each host->agent command on an open link
// (docs/architecture.md "Wire protocol"), apart from the socket: the serve
// loop (session.h) feeds every command here, so the rules are testable with
// plain callbacks.
#pragma once

#include <functional>
#include <set>
#include <string>

#include "schedrig/v1/envelope.pb.h"

namespace schedrig::agent {

// How a command is acted on. `run` runs one plan to its end (it may take
// minutes); `send` queues an envelope to the host.
// `boot` boots the kernel a Boot names (agent/boot); may be empty (an
// agent that boots nothing: ERROR_UNEXPECTED).
struct CommandHandlers {
  std::function<void(const schedrig::v1::StartRun&)> run;
  std::function<void(schedrig::v1::Envelope)> send;
  std::function<void(const schedrig::v1::Boot&)> boot{};
};

// The run_ids this agent instance ran, runs or reported: the host resends a
// StartRun after a reconnect when it has no RunStarted stored yet
// (docs/architecture.md "Queue"), and the agent runs each run once.
class SeenRuns {
 public:
  // True the first time `run_id` is given; false after.
  bool first(const std::string& run_id) { return ids_.insert(run_id).second; }

 private:
  std::set<std::string> ids_;
};

// StartRun: h.run, unless `seen` already had its run_id (ignored, debug log). Boot: h.boot.
// Error: logged (warn).
// Abort and Ping: nothing (the link already raised its abort flag for Abort, and acks are its own
// business). Anything else (e.g. a Hello sent back): logged and answered through h.send with an
// ERROR_UNEXPECTED Error naming the body ("agent does not take 'hello' messages").
void handle_command(const schedrig::v1::Envelope& cmd, const CommandHandlers& h, SeenRuns& seen);

// An Error envelope with `code`, `message` and `run_id` ("" = no run).
schedrig::v1::Envelope error_envelope(schedrig::v1::ErrorCode code, const std::string& message,
                                      const std::string& run_id);

}  // namespace schedrig::agent
