// Stamping agent->host envelopes with their identity and sequence
// (docs/architecture.md "Identity", "Wire protocol"): protocol_version, agent_id,
// boot_id, instance_id, a seq strictly increasing from 1, and sent_at_ns.
// Used by the live link and by offline files alike.
#pragma once

#include <cstdint>
#include <mutex>
#include <string>

#include "schedrig/v1/envelope.pb.h"

namespace schedrig {

// Who is speaking.
struct AgentIdentity {
  std::string agent_id;     // --id, default the hostname
  std::string boot_id;      // /proc/sys/kernel/random/boot_id
  std::string instance_id;  // UUIDv4 made at agent start
};

// Sets `env`'s protocol_version, the ids of `id`, `seq` and sent_at_ns (now).
// For a caller that keeps its own seq (agent/link/uplink.h: a Sample the
// spool drops gives its seq back, so an instance's seqs have no gaps).
void stamp_envelope(schedrig::v1::Envelope& env, const AgentIdentity& id, std::uint64_t seq);

class EnvelopeStamper {
 public:
  explicit EnvelopeStamper(AgentIdentity id) : id_(std::move(id)) {}
  // Stamps `env` and returns its seq. Thread-safe.
  std::uint64_t stamp(schedrig::v1::Envelope& env);
  const AgentIdentity& identity() const { return id_; }

 private:
  AgentIdentity id_;
  std::mutex mu_;
  std::uint64_t last_seq_ = 0;
};

}  // namespace schedrig
