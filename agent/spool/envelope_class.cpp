#include "agent/spool/envelope_class.h"

namespace schedrig::spool {

bool droppable(const schedrig::v1::Envelope& env) { return env.has_sample(); }

bool durable(const schedrig::v1::Envelope& env) { return !env.has_sample() && !env.has_log(); }

}  // namespace schedrig::spool
