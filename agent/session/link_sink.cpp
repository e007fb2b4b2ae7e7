#include "agent/session/link_sink.h"

namespace schedrig::agent {

using schedrig::v1::Envelope;

void LinkSink::run_started(const schedrig::v1::RunStarted& msg) {
  Envelope env;
  *env.mutable_run_started() = msg;
  last_seq_ = link_.send(std::move(env));
}

void LinkSink::iteration_done(const schedrig::v1::IterationResult& msg) {
  Envelope env;
  *env.mutable_iteration_result() = msg;
  last_seq_ = link_.send(std::move(env));
}

void LinkSink::run_finished(const schedrig::v1::RunFinished& msg) {
  Envelope env;
  *env.mutable_run_finished() = msg;
  env.mutable_run_finished()->set_dropped_samples(link_.dropped_samples(msg.run_id()));
  const link::UplinkEnd end = link_.end();
  if (msg.status() == schedrig::v1::STATUS_ABORTED &&
      (end == link::UplinkEnd::kLost || end == link::UplinkEnd::kNeverConnected)) {
    // The abort was the agent's own (--give-up-after), not an operator's: say so.
    env.mutable_run_finished()->set_reason("agent gave up on the host (" + link_.end_reason() +
                                           "); " + msg.reason());
  }
  last_seq_ = link_.send(std::move(env));
}

void LinkSink::log(const schedrig::v1::Log& msg) {
  Envelope env;
  *env.mutable_log() = msg;
  last_seq_ = link_.send(std::move(env));
}

void LinkSink::sample(const schedrig::v1::Sample& msg) {
  Envelope env;
  *env.mutable_sample() = msg;
  link_.send(std::move(env));
}

}  // namespace schedrig::agent
