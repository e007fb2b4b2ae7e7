// Telling the operator that a run waits for the knob lock another schedrig
// process on the box holds (docs/architecture.md "Wire protocol": Log with
// run_id and waiting), instead of the run just looking slow.
#pragma once

#include <string>

#include "agent/knobs/knob_controller.h"
#include "agent/runner/runner.h"
#include "schedrig/v1/control.pb.h"

namespace schedrig::runner {

// The Log of run `run_id` for `wait`: as it starts, level "warn", waiting,
// "waiting for the knob lock held by pid N (another schedrig process
// changing knobs on this box; lock PATH, up to S s)"; once taken, level
// "info", not waiting, "took the knob lock after S s".
schedrig::v1::Log lock_wait_log(const std::string& run_id, const knobs::LockWait& wait);

// The Log of run `run_id` for a wait for the machine-wide run lock
// (common/run_lock.h): level "warn", waiting, `message` ("waiting for run
// lock held by pid N (run X, since T)") while it lasts; level "info", not
// waiting, "took the run lock after S s" once taken.
schedrig::v1::Log run_lock_log(const std::string& run_id, const std::string& message, bool taken);

// While it lives, every lock wait of `knobs` goes to `sink` as the run's
// Log (and to the agent's own log); on destruction the controller tells no one.
class LockWaitReporter {
 public:
  LockWaitReporter(knobs::KnobController& knobs, RunSink& sink, std::string run_id);
  ~LockWaitReporter();
  LockWaitReporter(const LockWaitReporter&) = delete;
  LockWaitReporter& operator=(const LockWaitReporter&) = delete;

 private:
  knobs::KnobController& knobs_;
};

}  // namespace schedrig::runner
