#include "agent/runner/lock_wait_log.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "common/printable.h"

namespace schedrig::runner {

namespace {

double seconds_of(std::chrono::milliseconds ms) { return static_cast<double>(ms.count()) / 1e3; }

}  // namespace

schedrig::v1::Log lock_wait_log(const std::string& run_id, const knobs::LockWait& wait) {
  schedrig::v1::Log log;
  log.set_run_id(run_id);
  log.set_waiting(!wait.taken);
  log.set_level(wait.taken ? "info" : "warn");
  log.set_message(wait.taken
                      ? fmt::format("took the knob lock after {:.1f} s", seconds_of(wait.waited))
                      : fmt::format("waiting for the knob lock held by pid {} (another schedrig "
                                    "process changing knobs on this box; lock {}, up to {:.0f} s)",
                                    wait.holder, wait.path, seconds_of(wait.limit)));
  return log;
}

schedrig::v1::Log run_lock_log(const std::string& run_id, const std::string& message, bool taken) {
  schedrig::v1::Log log;
  log.set_run_id(run_id);
  log.set_waiting(!taken);
  log.set_level(taken ? "info" : "warn");
  log.set_message(message);
  return log;
}

LockWaitReporter::LockWaitReporter(knobs::KnobController& knobs, RunSink& sink, std::string run_id)
    : knobs_(knobs) {
  knobs_.set_lock_wait_observer([&sink, run_id = std::move(run_id)](const knobs::LockWait& w) {
    const schedrig::v1::Log log = lock_wait_log(run_id, w);
    spdlog::log(w.taken ? spdlog::level::info : spdlog::level::warn, "run {}: {}",
                printable(run_id), printable(log.message()));
    sink.log(log);
  });
}

LockWaitReporter::~LockWaitReporter() { knobs_.set_lock_wait_observer({}); }

}  // namespace schedrig::runner
