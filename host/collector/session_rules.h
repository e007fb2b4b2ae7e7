// What a session does with one decoded envelope from its agent
// (docs/architecture.md "Wire protocol", "Session rules"), decided without
// the network or the store: ownership of instances and runs is the store's
// check (kNotOwner), made when it is written.
#pragma once

#include <string>

#include "schedrig/v1/envelope.pb.h"

namespace schedrig::collector {

struct EnvelopeCheck {
  enum class Verdict {
    kStore,       // store it (a Hello first goes through the session registry)
    kReplyError,  // answer with an Error and carry on
    kViolation,   // answer with an Error and close with 1008: nothing more is taken
  };
  Verdict verdict = Verdict::kStore;
  schedrig::v1::ErrorCode code = schedrig::v1::ERROR_UNSPECIFIED;
  std::string message;  // for the Error envelope and the log (may hold agent text: escape it)
};

// `agent_id` is the id the session's token speaks for; `hello_accepted`
// whether this connection's Hello was accepted already. A host->agent body
// or missing ids -> kReplyError (ERROR_UNEXPECTED); another agent_id ->
// kViolation (ERROR_NOT_OWNER); anything but Hello first -> kViolation
// (ERROR_UNEXPECTED).
EnvelopeCheck check_envelope(const schedrig::v1::Envelope& env, const std::string& agent_id,
                             bool hello_accepted);

}  // namespace schedrig::collector
