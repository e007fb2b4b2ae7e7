// What a session does with one decoded envelope from its agent
// (docs/architecture.md "Wire protocol", "Session rules"), decided without
// the network or the store: ownership of instances and runs is the store's
// check (kNotOwner), made when it is written.
#pragma once

#include <cstdint>
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

// What one session (one WebSocket) has taken so far: the instance its
// accepted Hello fixed and the highest seq taken. Seqs rise strictly within
// a session, which is what makes the host's cumulative Ack sound; a new
// session (a reconnect) starts afresh, so it may send seqs stored before (the
// store is idempotent on (agent_id, instance_id, seq)).
struct SessionLedger {
  std::string instance_id;     // "" until the Hello is accepted
  std::uint64_t last_seq = 0;  // 0: nothing taken

  bool hello_accepted() const { return !instance_id.empty(); }
  // Records an envelope check_envelope passed (kStore), once it is taken:
  // its seq, and for the Hello its instance_id.
  void take(const schedrig::v1::Envelope& env);
};

// The highest seq the store can hold (a SQLite INTEGER): 2^63 - 1.
inline constexpr std::uint64_t kMaxSeq = static_cast<std::uint64_t>(INT64_MAX);

// `agent_id` is the id the session's token speaks for; `ledger` what the
// session took so far. A host->agent body or missing ids -> kReplyError
// (ERROR_UNEXPECTED); another agent_id -> kViolation (ERROR_NOT_OWNER);
// anything but Hello first, a second Hello, another instance_id than the
// Hello's, a seq not above the last one taken or over kMaxSeq -> kViolation
// (ERROR_UNEXPECTED).
EnvelopeCheck check_envelope(const schedrig::v1::Envelope& env, const std::string& agent_id,
                             const SessionLedger& ledger);

}  // namespace schedrig::collector
