#include "agent/runner/runner.h"

#include <thread>

#include <spdlog/spdlog.h>

#include "agent/runner/fingerprint.h"
#include "agent/runner/prepare.h"
#include "agent/workloads/workload_error.h"
#include "common/cpulist.h"
#include "common/ids.h"
#include "common/plan/schedule.h"

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
}

// One slot: warm-up (discarded), measured run, cool-down.
v1::IterationResult run_slot(const v1::StartRun& start, const PreparedCase& pc, const Slot& slot,
                             std::uint32_t position, const std::atomic<bool>& stop) {
  const auto& plan = start.plan();
  v1::IterationResult out;
  out.set_run_id(start.run_id());
  out.set_case_name(pc.name);
  out.set_variant(plan.variants(slot.variant_index).name());
  out.set_iteration(slot.iteration);
  out.set_position(position);
  out.set_cpus(format_cpulist(pc.cpus));
  workloads::RunContext ctx{pc.cpus, nanoseconds(plan.warmup_ns()), &stop};
  try {
    if (plan.warmup_ns() > 0) pc.workload->run(pc.params, ctx);
    ctx.duration = nanoseconds(plan.duration_ns());
    out.set_started_at_ns(wall_clock_ns());
    workloads::WorkloadResult r = pc.workload->run(pc.params, ctx);
    out.set_finished_at_ns(wall_clock_ns());
    fill_metrics(r, out);
    out.set_status(v1::STATUS_OK);
  } catch (const workloads::WorkloadError& e) {
    out.set_finished_at_ns(wall_clock_ns());
    out.set_status(v1::STATUS_FAILED);
    out.set_reason(e.what());
  }
  return out;
}

v1::RunStarted make_run_started(const v1::StartRun& start, std::uint32_t planned) {
  v1::RunStarted msg;
  msg.set_run_id(start.run_id());
  *msg.mutable_plan() = start.plan();
  *msg.mutable_labels() = start.plan().labels();
  for (const auto& [k, v] : start.labels()) (*msg.mutable_labels())[k] = v;
  *msg.mutable_fingerprint() = take_fingerprint();
  msg.set_planned_iterations(planned);
  return msg;
}

}  // namespace

v1::RunFinished run_plan(const v1::StartRun& start, const topology::Topology& topo, RunSink& sink,
                         const std::atomic<bool>& stop) {
  const std::vector<PreparedCase> cases = prepare_cases(start.plan(), topo);
  const std::vector<Slot> schedule = make_schedule(start.plan());
  sink.run_started(make_run_started(start, static_cast<std::uint32_t>(schedule.size())));

  v1::RunFinished done;
  done.set_run_id(start.run_id());
  done.set_status(v1::STATUS_OK);
  std::uint32_t position = 0;
  for (const Slot& slot : schedule) {
    v1::IterationResult r;
    if (!stop.load()) r = run_slot(start, cases[slot.case_index], slot, position++, stop);
    if (stop.load()) {
      done.set_status(v1::STATUS_ABORTED);
      done.set_reason("aborted before iteration " + std::to_string(position) + " of " +
                      std::to_string(schedule.size()) + " completed");
      break;
    }
    if (r.status() != v1::STATUS_OK) {
      spdlog::warn("iteration {} of case '{}' failed: {}", r.iteration(), r.case_name(),
                   r.reason());
      done.set_status(v1::STATUS_FAILED);
      done.set_reason(r.reason());
    }
    sink.iteration_done(r);
    done.set_completed_iterations(done.completed_iterations() + 1);
    if (position < schedule.size())
      sleep_interruptibly(nanoseconds(start.plan().cooldown_ns()), stop);
  }
  sink.run_finished(done);
  return done;
}

}  // namespace schedrig::runner
