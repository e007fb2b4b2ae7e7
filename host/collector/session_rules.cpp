#include "host/collector/session_rules.h"

#include <fmt/format.h>

#include "common/envelope_codec.h"

namespace schedrig::collector {

namespace v1 = schedrig::v1;
using Verdict = EnvelopeCheck::Verdict;

namespace {

bool is_host_to_agent(const v1::Envelope& env) {
  return env.has_ack() || env.has_start_run() || env.has_abort() || env.has_ping();
}

}  // namespace

EnvelopeCheck check_envelope(const v1::Envelope& env, const std::string& agent_id,
                             bool hello_accepted) {
  if (is_host_to_agent(env)) {
    return {Verdict::kReplyError, v1::ERROR_UNEXPECTED,
            body_name(env) + " is a host->agent message"};
  }
  if (env.agent_id().empty() || env.instance_id().empty() || env.seq() == 0) {
    return {Verdict::kReplyError, v1::ERROR_UNEXPECTED,
            "agent_id, instance_id and seq > 0 are required"};
  }
  if (env.agent_id() != agent_id) {
    return {Verdict::kViolation, v1::ERROR_NOT_OWNER,
            fmt::format("agent_id '{}' is not the id this token speaks for ('{}')", env.agent_id(),
                        agent_id)};
  }
  if (!hello_accepted && !env.has_hello()) {
    return {Verdict::kViolation, v1::ERROR_UNEXPECTED,
            fmt::format("{} before Hello: Hello comes first on every connection", body_name(env))};
  }
  return {Verdict::kStore, v1::ERROR_UNSPECIFIED, ""};
}

}  // namespace schedrig::collector
