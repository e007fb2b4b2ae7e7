#include "host/collector/session_rules.h"

#include <fmt/format.h>

#include "common/envelope_codec.h"

namespace schedrig::collector {

namespace v1 = schedrig::v1;
using Verdict = EnvelopeCheck::Verdict;

namespace {

bool is_host_to_agent(const v1::Envelope& env) {
  return env.has_ack() || env.has_start_run() || env.has_abort() || env.has_ping() ||
         env.has_boot();
}

EnvelopeCheck violation(std::string message) {
  return {Verdict::kViolation, v1::ERROR_UNEXPECTED, std::move(message)};
}

// A Hello's bootable kernels (an agent's kernels: table holds at most 64).
constexpr int kMaxHelloKernels = 64;

// The rules of one session's sequence: Hello first and once (listing at
// most kMaxHelloKernels kernels), one instance, rising seqs. "" when `env` keeps them.
std::string sequence_breach(const v1::Envelope& env, const SessionLedger& ledger) {
  if (!ledger.hello_accepted()) {
    if (env.has_hello() && env.hello().kernels_size() > kMaxHelloKernels)
      return fmt::format("Hello lists {} kernels: at most {}", env.hello().kernels_size(),
                         kMaxHelloKernels);
    if (env.has_hello()) return "";
    return fmt::format("{} before Hello: Hello comes first on every connection", body_name(env));
  }
  if (env.has_hello()) {
    return fmt::format(
        "a second Hello (seq {}): one Hello per connection, reconnect to send another", env.seq());
  }
  if (env.instance_id() != ledger.instance_id) {
    return fmt::format("instance_id '{}' is not this connection's ('{}', from its Hello)",
                       env.instance_id(), ledger.instance_id);
  }
  if (env.seq() <= ledger.last_seq) {
    return fmt::format("seq {} after seq {}: seqs rise strictly within a connection", env.seq(),
                       ledger.last_seq);
  }
  return "";
}

}  // namespace

void SessionLedger::take(const v1::Envelope& env) {
  if (env.has_hello()) instance_id = env.instance_id();
  last_seq = env.seq();
}

EnvelopeCheck check_envelope(const v1::Envelope& env, const std::string& agent_id,
                             const SessionLedger& ledger) {
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
  if (env.seq() > kMaxSeq) {
    return violation(fmt::format("seq {} is over 2^63 - 1", env.seq()));
  }
  std::string breach = sequence_breach(env, ledger);
  if (!breach.empty()) return violation(std::move(breach));
  return {Verdict::kStore, v1::ERROR_UNSPECIFIED, ""};
}

}  // namespace schedrig::collector
