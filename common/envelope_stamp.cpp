#include "common/envelope_stamp.h"

#include "common/envelope_codec.h"
#include "common/ids.h"

namespace schedrig {

std::uint64_t EnvelopeStamper::stamp(v1::Envelope& env) {
  std::lock_guard lock(mu_);
  env.set_protocol_version(kProtocolVersion);
  env.set_agent_id(id_.agent_id);
  env.set_boot_id(id_.boot_id);
  env.set_instance_id(id_.instance_id);
  env.set_seq(++last_seq_);
  env.set_sent_at_ns(wall_clock_ns());
  return last_seq_;
}

}  // namespace schedrig
