// What the agent does with each host->agent command on an open link
// (docs/architecture.md "Wire protocol"), apart from the socket: the serve
// loop (session.h) feeds every command here, so the rules are testable with
// plain callbacks.
#pragma once

#include <functional>
#include <string>

#include "schedrig/v1/envelope.pb.h"

namespace schedrig::agent {

// How a command is acted on. `run` runs one plan to its end (it may take
// minutes); `send` queues an envelope to the host.
struct CommandHandlers {
  std::function<void(const schedrig::v1::StartRun&)> run;
  std::function<void(schedrig::v1::Envelope)> send;
};

// StartRun: h.run. Error: logged (warn). Abort and Ping: nothing (the link
// already raised its abort flag for Abort, and acks are its own business).
// Anything else (e.g. a Hello sent back): logged and answered through h.send
// with an ERROR_UNEXPECTED Error naming the body ("agent does not take
// 'hello' messages").
void handle_command(const schedrig::v1::Envelope& cmd, const CommandHandlers& h);

// An Error envelope with `code`, `message` and `run_id` ("" = no run).
schedrig::v1::Envelope error_envelope(schedrig::v1::ErrorCode code, const std::string& message,
                                      const std::string& run_id);

}  // namespace schedrig::agent
