#include "common/envelope_stamp.h"

#include "common/envelope_codec.h"
#include "common/ids.h"

namespace schedrig {

void stamp_envelope(v1::Envelope& env, const AgentIdentity& id, std::uint64_t seq) {
  env.set_protocol_version(kProtocolVersion);
  env.set_agent_id(id.agent_id);
  env.set_boot_id(id.boot_id);
  env.set_instance_id(id.instance_id);
  env.set_seq(seq);
  env.set_sent_at_ns(wall_clock_ns());
}

std::uint64_t EnvelopeStamper::stamp(v1::Envelope& env) {
  std::lock_guard lock(mu_);
  stamp_envelope(env, id_, ++last_seq_);
  return last_seq_;
}

}  // namespace schedrig
