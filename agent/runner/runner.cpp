#include "agent/runner/runner.h"

#include "agent/runner/antagonist.h"

#include <unistd.h>

#include <mutex>
#include <thread>

#include <spdlog/spdlog.h>

#include <fmt/format.h>

#include "agent/knobs/variant_knobs.h"
#include "agent/runner/disturbance_check.h"
#include "agent/runner/fingerprint.h"
#include "agent/runner/iteration_sampling.h"
#include "agent/runner/lock_wait_log.h"
#include "agent/runner/prepare.h"
#include "agent/runner/schedstats_knob.h"
#include "agent/runner/verdict_stop.h"
#include "agent/runner/watchdog.h"
#include "agent/runner/zero_work.h"
#include "agent/workloads/workload_error.h"
#include "common/cpulist.h"
#include "common/ids.h"
#include "common/plan/quiet.h"
#include "common/plan/schedule.h"
#include "common/printable.h"

namespace schedrig::runner {
namespace {

using namespace std::chrono;
namespace v1 = schedrig::v1;

void sleep_interruptibly(nanoseconds d, const std::atomic<bool>& stop) {
  const auto deadline = steady_clock::now() + d;
  while (!stop.load() && steady_clock::now() < deadline) {
    std::this_thread::sleep_for(
        std::min<nanoseconds>(milliseconds(10), deadline - steady_clock::now()));
  }
}

v1::Direction to_proto(workloads::Direction d) {
  return d == workloads::Direction::kHigherIsBetter ? v1::HIGHER_IS_BETTER : v1::LOWER_IS_BETTER;
}

void fill_metrics(const workloads::WorkloadResult& r, v1::IterationResult& out) {
  for (const auto& m : r.metrics) {
    auto* pm = out.add_metrics();
    pm->set_name(m.name);
    pm->set_value(m.value);
    pm->set_unit(m.unit);
    pm->set_direction(to_proto(m.direction));
  }
  for (const auto& h : r.histograms) {
    auto* ph = out.add_histograms();
    ph->set_name(h.name);
    ph->set_unit(h.unit);
    ph->mutable_lower_bounds()->Add(h.lower_bounds.begin(), h.lower_bounds.end());
    ph->mutable_counts()->Add(h.counts.begin(), h.counts.end());
  }
}

// What every iteration of a run shares: the topology maps workloads use,
// sampling, the quiet-box check and where samples go.
struct RunShared {
  std::vector<int> pu_to_llc;
  std::vector<int> pu_to_node;
  SamplingConfig sampling;
  v1::QuietCheck quiet;
  RunSink* sink = nullptr;
  const tools::ToolPaths* tools = nullptr;
  v1::Antagonist simulated_slowdown;  // RunOptions::simulated_slowdown
};

// `observer` with the hogs beside the iteration: the simulated slowdown's
// (a slower kernel, always) and the variant's own antagonist on top.
workloads::WindowObserver with_hogs(workloads::WindowObserver observer, const v1::Variant& variant,
                                    const RunShared& shared, const std::vector<int>& cpus) {
  const v1::Antagonist& slow = shared.simulated_slowdown;
  observer = with_antagonist(std::move(observer), variant.antagonist(),
                             antagonist_cpus(variant.antagonist(), cpus));
  return with_antagonist(std::move(observer), slow, antagonist_cpus(slow, cpus));
}

// `base` with each threshold the plan's `starvation:` sets (non-zero).
sampler::StarvationThresholds with_plan_rule(sampler::StarvationThresholds base,
                                             const v1::StarvationRule& rule) {
  if (rule.idle_after_pct() > 0) base.idle_after_pct = rule.idle_after_pct();
  if (rule.lookahead() > 0) base.lookahead = static_cast<int>(rule.lookahead());
  if (rule.wait_share_pct() > 0) base.wait_share_pct = rule.wait_share_pct();
  if (rule.idle_pct() > 0) base.idle_pct = rule.idle_pct();
  return base;
}

// Waits for a quiet box as plan.quiet asks and records it in `out`. Returns
// why the iteration is disturbed when the check gave up, else "".
std::string wait_for_quiet(const RunShared& shared, const std::atomic<bool>& stop,
                           v1::IterationResult& out) {
  const v1::QuietCheck& q = shared.quiet;
  if (q.timeout_s() <= 0) return "";
  try {
    const sampler::QuietResult r = sampler::wait_until_quiet(shared.sampling.root, q.max_runnable(),
                                                             q.hold_s(), q.timeout_s(), &stop);
    out.set_quiet_wait_s(r.waited_s);
    out.set_quiet_gave_up(r.gave_up);
    if (r.gave_up) {
      spdlog::warn("box not quiet after {:.3g} s (more than {} runnable tasks); running anyway",
                   r.waited_s, q.max_runnable());
      if (!stop.load()) return quiet_gave_up_reason(r, q.max_runnable());
    }
  } catch (const sampler::SamplerError& e) {  // no /proc/stat under the root: say it once
    static std::once_flag said;
    std::call_once(said, [&] { spdlog::warn("quiet-box check skipped: {}", e.what()); });
  }
  return "";
}

// Grace an iteration may overrun its warm-up + duration before the watchdog
// stops it: 5 s, or half the duration when that is longer.
nanoseconds overrun_grace(const v1::Plan& plan) {
  return std::max<nanoseconds>(seconds(5), nanoseconds(plan.duration_ns() / 2));
}

// Runs the workload once for `duration` under a watchdog.
workloads::WorkloadResult run_watched(const PreparedCase& pc, const RunShared& shared,
                                      nanoseconds duration, nanoseconds grace,
                                      const std::atomic<bool>& stop,
                                      workloads::WindowObserver observer = {}) {
  Watchdog watchdog(stop, duration + grace);
  workloads::RunContext ctx;
  ctx.cpus = pc.cpus;
  ctx.duration = duration;
  ctx.stop = &watchdog.flag();
  ctx.message_cpus = pc.placement.message_cpus;
  ctx.worker_cpus = pc.placement.worker_cpus;
  ctx.pu_to_llc = shared.pu_to_llc;
  ctx.pu_to_node = shared.pu_to_node;
  ctx.observer = std::move(observer);
  ctx.tools = shared.tools;
  const auto overran = [&] {
    return workloads::WorkloadError(fmt::format(
        "{}: overran its {:.3g} s by more than the {:.3g} s grace; stopped by the watchdog",
        pc.workload->name, static_cast<double>(duration.count()) / 1e9,
        static_cast<double>(grace.count()) / 1e9));
  };
  workloads::WorkloadResult r;
  try {
    r = pc.workload->run(pc.params, ctx);
  } catch (const workloads::WorkloadError&) {
    if (watchdog.fired()) throw overran();  // the stop it caused, not the cause
    throw;
  }
  if (watchdog.fired()) throw overran();
  return r;
}

// One slot: the variant's knobs, warm-up (discarded), measured run.
v1::IterationResult run_slot(const v1::StartRun& start, const PreparedCase& pc,
                             const RunShared& shared, const Slot& slot, std::uint32_t position,
                             knobs::KnobController& knob_control, const std::atomic<bool>& stop) {
  const auto& plan = start.plan();
  v1::IterationResult out;
  out.set_run_id(start.run_id());
  out.set_case_name(pc.name);
  out.set_variant(plan.variants(slot.variant_index).name());
  out.set_iteration(slot.iteration);
  out.set_position(position);
  out.set_cpus(format_cpulist(pc.cpus));
  try {
    const auto settings = knobs::variant_settings(plan, slot.variant_index);
    knob_control.apply(settings);
    for (const auto& [name, value] : knob_control.current(settings))
      (*out.mutable_knobs())[name] = value;
    const std::string quiet_reason = wait_for_quiet(shared, stop, out);
    if (plan.warmup_ns() > 0) {
      run_watched(pc, shared, nanoseconds(plan.warmup_ns()), overrun_grace(plan), stop);
    }
    IterationSampling sampling(shared.sampling, pc.cpus, out, *shared.sink);
    out.set_started_at_ns(wall_clock_ns());
    sampling.start();
    workloads::WorkloadResult r = run_watched(
        pc, shared, nanoseconds(plan.duration_ns()), overrun_grace(plan), stop,
        with_hogs(sampling.observer(), plan.variants(slot.variant_index), shared, pc.cpus));
    *out.mutable_sample_summary() = sampling.finish();
    out.set_finished_at_ns(wall_clock_ns());
    if (const std::string why = zero_work_reason(r); !why.empty()) {
      throw workloads::WorkloadError(why);
    }
    fill_metrics(r, out);
    out.set_status(v1::STATUS_OK);
    mark_disturbed(shared.quiet, quiet_reason, sampling.window_load(), out);
  } catch (const std::runtime_error& e) {  // WorkloadError, KnobError
    out.set_finished_at_ns(wall_clock_ns());
    out.set_status(v1::STATUS_FAILED);
    out.set_reason(e.what());
  }
  return out;
}

// One slot run until it is not disturbed, up to 1 + quiet.retries times
// (docs/sampling.md "Disturbed iterations"); the last attempt is what is
// recorded, with attempts = the runs made.
v1::IterationResult run_attempts(const v1::StartRun& start, const PreparedCase& pc,
                                 const RunShared& shared, const Slot& slot, std::uint32_t position,
                                 knobs::KnobController& knob_control,
                                 const std::atomic<bool>& stop) {
  const std::uint32_t runs = 1 + quiet_retries(shared.quiet);
  for (std::uint32_t attempt = 1;; ++attempt) {
    v1::IterationResult r = run_slot(start, pc, shared, slot, position, knob_control, stop);
    r.set_attempts(attempt);
    if (!r.disturbed() || attempt >= runs || stop.load()) return r;
    spdlog::warn(
        "iteration {} of case '{}' variant '{}' disturbed ({}); running it again ({} of {})",
        r.iteration(), printable(r.case_name()), printable(r.variant()),
        printable(r.disturbed_reason()), attempt + 1, runs);
    sleep_interruptibly(nanoseconds(start.plan().cooldown_ns()), stop);
  }
}

v1::RunStarted make_run_started(const v1::StartRun& start, std::uint32_t planned,
                                const procfs::Root& root) {
  v1::RunStarted msg;
  msg.set_run_id(start.run_id());
  *msg.mutable_plan() = start.plan();
  *msg.mutable_labels() = start.plan().labels();
  for (const auto& [k, v] : start.labels()) (*msg.mutable_labels())[k] = v;
  *msg.mutable_fingerprint() = take_fingerprint(root);
  msg.set_planned_iterations(planned);
  return msg;
}

// Puts the box back as found before RunFinished is sent; a failure to do so
// fails the run and is said in its reason.
void restore_knobs(knobs::KnobController& knob_control, v1::RunFinished& done) {
  try {
    knob_control.restore();
  } catch (const std::exception& e) {
    spdlog::error("{}", printable(e.what()));
    done.set_status(v1::STATUS_FAILED);
    done.set_reason(fmt::format("knobs not restored: {}", e.what()));
  }
}

// The end of a run that could not start its iterations: `status` and why.
v1::RunFinished run_refused(const v1::StartRun& start, v1::Status status,
                            const std::string& reason) {
  v1::RunFinished done;
  done.set_run_id(start.run_id());
  done.set_status(status);
  done.set_reason(reason);
  return done;
}

// Takes the run lock when `options` name one, telling the wait to the sink
// as the run's Log. Empty on success; else the run's end (failed, or
// aborted when stopped while waiting).
std::optional<v1::RunFinished> take_run_lock(const RunOptions& options, const v1::StartRun& start,
                                             RunSink& sink, const std::atomic<bool>& stop,
                                             std::unique_ptr<RunLock>& held) {
  if (!options.run_lock) return std::nullopt;
  try {
    held = hold_run_lock(*options.run_lock, start.run_id(), stop,
                         [&](const std::string& message, bool taken) {
                           spdlog::log(taken ? spdlog::level::info : spdlog::level::warn,
                                       "run {}: {}", printable(start.run_id()), message);
                           sink.log(run_lock_log(start.run_id(), message, taken));
                         });
    return std::nullopt;
  } catch (const Error& e) {
    return run_refused(start,
                       e.kind() == ErrorKind::kInterrupted ? v1::STATUS_ABORTED : v1::STATUS_FAILED,
                       e.what());
  }
}

// Whether a variant of `plan` sets a knob.
bool sets_knobs(const v1::Plan& plan) {
  for (int i = 0; i < plan.variants_size(); ++i) {
    if (!knobs::variant_settings(plan, i).empty()) return true;
  }
  return false;
}

// Whether a run of `plan` under `root` takes the knob lock: when a variant
// sets a knob, but not on the live machine as a user that is not root (it
// writes no knobs there, and /run/schedrig is not its to create). A run
// that sets none leaves the knobs as it found them and another run cannot
// overlap it (the run lock); tests of many knob-free runs on the live
// machine then never queue on one knob lock.
bool takes_knob_lock(const procfs::Root& root, const v1::Plan& plan) {
  return (!root.is_live() || ::geteuid() == 0) && sets_knobs(plan);
}

// Takes the knob lock for the whole run (after the run lock) when it sets
// knobs, before its first variant (which may set none), so a console
// `knobs set` cannot land in the middle of it; a wait is told
// to the sink by the LockWaitReporter. Empty on success; else the run's end
// (failed: the lock stayed held past kLockWait, or cannot be opened).
std::optional<v1::RunFinished> take_knob_lock(knobs::KnobController& knob_control,
                                              const v1::StartRun& start) {
  if (!takes_knob_lock(knob_control.root(), start.plan())) return std::nullopt;
  try {
    knob_control.hold_lock();
    return std::nullopt;
  } catch (const knobs::KnobError& e) {
    spdlog::error("run {}: {}", printable(start.run_id()), printable(e.what()));
    return run_refused(start, v1::STATUS_FAILED, e.what());
  }
}

// Lets the knob lock go however run_plan ends (restore_knobs lets it go on
// the normal path; an exception would otherwise leave it held by a
// controller that outlives the run, as connect's does).
struct KnobLockRelease {
  knobs::KnobController& knob_control;
  ~KnobLockRelease() { knob_control.release_lock(); }
};

}  // namespace

v1::RunFinished run_plan(const v1::StartRun& requested, const topology::Topology& topo,
                         RunSink& sink, knobs::KnobController& knob_control,
                         const std::atomic<bool>& stop, const RunOptions& options) {
  const std::vector<PreparedCase> cases = prepare_cases(requested.plan(), topo, options.tools);
  check_variants(requested.plan(), knob_control);
  v1::StartRun start = requested;
  *start.mutable_plan() = with_schedstats_on(requested.plan(), knob_control, options.root);
  const std::vector<Slot> schedule = make_schedule(start.plan());
  RunShared shared;
  shared.pu_to_llc = topology::pu_to_llc(topo);
  shared.pu_to_node = topology::pu_to_node(topo);
  shared.sampling = {options.root, start.plan().sample_hz(), shared.pu_to_node,
                     with_plan_rule(options.thresholds, start.plan().starvation())};
  shared.quiet = start.plan().quiet();
  shared.sink = &sink;
  shared.tools = &options.tools;
  shared.simulated_slowdown = options.simulated_slowdown;
  const LockWaitReporter lock_waits(knob_control, sink, start.run_id());
  sink.run_started(
      make_run_started(start, static_cast<std::uint32_t>(schedule.size()), options.root));
  std::unique_ptr<RunLock> run_lock;
  if (auto refused = take_run_lock(options, start, sink, stop, run_lock)) {
    sink.run_finished(*refused);
    return *refused;
  }
  const KnobLockRelease release{knob_control};
  if (auto refused = take_knob_lock(knob_control, start)) {
    sink.run_finished(*refused);
    return *refused;
  }

  v1::RunFinished done;
  done.set_run_id(start.run_id());
  done.set_status(v1::STATUS_OK);
  std::uint32_t position = 0;
  VerdictStop verdict_stop(start.plan());
  for (const Slot& slot : schedule) {
    if (verdict_stop.skips(slot)) continue;
    v1::IterationResult r;
    if (!stop.load())
      r = run_attempts(start, cases[slot.case_index], shared, slot, position++, knob_control, stop);
    if (stop.load()) {
      done.set_status(v1::STATUS_ABORTED);
      done.set_reason(
          fmt::format("aborted before iteration {} of {} completed", position, schedule.size()));
      break;
    }
    if (r.status() != v1::STATUS_OK) {
      spdlog::warn("iteration {} of case '{}' variant '{}' failed: {}", r.iteration(),
                   printable(r.case_name()), printable(r.variant()), printable(r.reason()));
      done.set_status(v1::STATUS_FAILED);
      done.set_reason(r.reason());
    }
    sink.iteration_done(r);
    done.set_completed_iterations(done.completed_iterations() + 1);
    for (const std::string& v : verdict_stop.record(slot, r))
      spdlog::info("case '{}' settled, no more rounds: {}", printable(r.case_name()), printable(v));
    if (position < schedule.size())
      sleep_interruptibly(nanoseconds(start.plan().cooldown_ns()), stop);
  }
  restore_knobs(knob_control, done);
  sink.run_finished(done);
  return done;
}

}  // namespace schedrig::runner
