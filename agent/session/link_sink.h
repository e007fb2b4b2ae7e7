// A RunSink that streams a run to the host over the Uplink (spooled first,
// so nothing is lost while the link is down), one Envelope per message, and
// remembers the last seq so the caller can wait for its Ack. RunFinished
// gets the run's dropped_samples from the spool.
#pragma once

#include <cstdint>

#include "agent/link/uplink.h"
#include "agent/runner/runner.h"

namespace schedrig::agent {

class LinkSink : public runner::RunSink {
 public:
  explicit LinkSink(link::Uplink& link) : link_(link) {}
  void run_started(const schedrig::v1::RunStarted& msg) override;
  void iteration_done(const schedrig::v1::IterationResult& msg) override;
  void run_finished(const schedrig::v1::RunFinished& msg) override;
  void sample(const schedrig::v1::Sample& msg) override;  // Uplink::send is thread-safe
  void log(const schedrig::v1::Log& msg) override;
  std::uint64_t last_seq() const { return last_seq_; }

 private:
  link::Uplink& link_;
  std::uint64_t last_seq_ = 0;
};

}  // namespace schedrig::agent
