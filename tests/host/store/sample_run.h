// A small, realistic envelope stream for store and report tests: Hello,
// Topology, RunStarted (with a Plan), three IterationResults, RunFinished;
// and the same run with live samples (sampled_run).
#pragma once

#include <string>
#include <vector>

#include "common/envelope_codec.h"
#include "schedrig/v1/envelope.pb.h"

namespace schedrig::testing {

inline constexpr const char* kAgent = "altra-01";
inline constexpr const char* kInstance = "0b5e8f2a-1c2d-4e3f-8a9b-0c1d2e3f4a5b";
inline constexpr const char* kBoot = "7d1c6a2e-0000-4000-8000-000000000001";
inline constexpr const char* kRun = "3f2a9c1e-5b6d-4e7f-8a9b-1c2d3e4f5a6b";
inline constexpr long long kT0 = 1767225600LL * 1000000000LL;  // 2026-01-01T00:00:00Z

// Per-iteration primary metric values, in position order.
inline const std::vector<double> kOpsPerS = {127553.25, 124467.5, 38047.0};

inline v1::Envelope make_envelope(unsigned long long seq, const std::string& instance = kInstance,
                                  const std::string& agent = kAgent) {
  v1::Envelope env;
  env.set_protocol_version(kProtocolVersion);
  env.set_agent_id(agent);
  env.set_boot_id(kBoot);
  env.set_instance_id(instance);
  env.set_seq(seq);
  env.set_sent_at_ns(kT0 + static_cast<long long>(seq) * 1000000000LL);
  return env;
}

inline v1::Plan make_plan(const std::string& name) {
  v1::Plan plan;
  plan.set_name(name);
  plan.set_iterations(3);
  plan.set_duration_ns(5000000000ULL);
  plan.set_warmup_ns(1000000000ULL);
  plan.set_cooldown_ns(1000000000ULL);
  plan.set_sample_hz(1);
  v1::Case* c = plan.add_cases();
  c->set_name("fork-all");
  c->set_workload("fork");
  (*c->mutable_params())["workers"] = "auto";
  (*c->mutable_params())["fork_max"] = "1";
  c->set_placement("all");
  plan.add_variants()->set_name("baseline");
  return plan;
}

// The whole stream of one run `run_id` from instance `instance`: seven
// envelopes, seq first_seq..first_seq+6, sent one second apart from
// kT0 + first_seq seconds.
inline std::vector<v1::Envelope> sample_run(const std::string& run_id = kRun,
                                            unsigned long long first_seq = 1,
                                            const std::string& instance = kInstance,
                                            const std::string& plan_name = "fork-vs-features") {
  std::vector<v1::Envelope> out;
  unsigned long long seq = first_seq - 1;

  v1::Envelope hello = make_envelope(++seq, instance);
  hello.mutable_hello()->set_hostname("altra-01.lab");
  hello.mutable_hello()->set_kernel_release("6.19.0-rc3");
  hello.mutable_hello()->set_agent_version("0.1.0");
  hello.mutable_hello()->set_allowed_pus(158);
  out.push_back(hello);

  v1::Envelope topo = make_envelope(++seq, instance);
  topo.mutable_topology()->set_packages(2);
  topo.mutable_topology()->set_cores(160);
  topo.mutable_topology()->set_pus(160);
  topo.mutable_topology()->set_online_cpus("0-159");
  out.push_back(topo);

  v1::Envelope started = make_envelope(++seq, instance);
  v1::RunStarted* rs = started.mutable_run_started();
  rs->set_run_id(run_id);
  *rs->mutable_plan() = make_plan(plan_name);
  (*rs->mutable_labels())["kernel"] = "6.19-rc3";
  (*rs->mutable_labels())["tag"] = "nightly";
  rs->mutable_fingerprint()->set_kernel_release("6.19.0-rc3");
  rs->set_planned_iterations(3);
  out.push_back(started);

  for (unsigned i = 0; i < kOpsPerS.size(); ++i) {
    v1::Envelope env = make_envelope(++seq, instance);
    v1::IterationResult* it = env.mutable_iteration_result();
    it->set_run_id(run_id);
    it->set_case_name("fork-all");
    it->set_variant("baseline");
    it->set_iteration(i + 1);
    it->set_position(i);
    it->set_status(i == 2 ? v1::STATUS_FAILED : v1::STATUS_OK);
    if (i == 2) it->set_reason("watchdog: overran duration by 2 s");
    v1::Metric* m = it->add_metrics();
    m->set_name("bogo_ops_per_s");
    m->set_value(kOpsPerS[i]);
    m->set_unit("ops/s");
    m->set_direction(v1::HIGHER_IS_BETTER);
    v1::Metric* lat = it->add_metrics();
    lat->set_name("stale_pick_rate");
    lat->set_value(0.0123 * (i + 1));
    lat->set_unit("ratio");
    lat->set_direction(v1::LOWER_IS_BETTER);
    v1::Histogram* h = it->add_histograms();
    h->set_name("fork_latency");
    h->set_unit("us");
    h->add_lower_bounds(1);
    h->add_counts(10);
    // insert(), not operator[] = "...": GCC 12 warns falsely (-Wrestrict) on the latter.
    it->mutable_knobs()->insert({"NI_RANDOM", "on"});
    it->mutable_knobs()->insert({"kernel.sched_autogroup_enabled", "1"});
    it->set_cpus("0-159");
    it->set_started_at_ns(kT0 + 10000000000LL * (i + 1));
    it->set_finished_at_ns(kT0 + 10000000000LL * (i + 1) + 5000000000LL);
    out.push_back(env);
  }

  v1::Envelope finished = make_envelope(++seq, instance);
  finished.mutable_run_finished()->set_run_id(run_id);
  finished.mutable_run_finished()->set_status(v1::STATUS_OK);
  finished.mutable_run_finished()->set_completed_iterations(3);
  out.push_back(finished);
  return out;
}

// One Sample of `run_id` at `position` (iteration position + 1 of
// fork-all/baseline), taken `k` intervals into the window. Every value is
// set and distinct (see sample_value_of), including two NUMA nodes; with
// `sparse`, the optional ones (wait share, newidle, run delay, PSI, NUMA)
// are left out as on a box without /proc/schedstat or PSI.
inline v1::Envelope make_sample(unsigned long long seq, const std::string& run_id,
                                unsigned position, unsigned k, bool sparse = false) {
  v1::Envelope env = make_envelope(seq);
  v1::Sample* s = env.mutable_sample();
  s->set_run_id(run_id);
  s->set_case_name("fork-all");
  s->set_variant("baseline");
  s->set_iteration(position + 1);
  s->set_position(position);
  s->set_t_ns(kT0 + 10000000000LL * (position + 1) + 1000000000LL * (k + 1) + 250000000LL);
  s->set_interval_s(1.0 + 0.001 * k);
  s->set_ops_so_far(1000ULL * (k + 1) + position);
  const double b = 10.0 * position + k;  // base of this sample's values
  s->set_idle_pct(12.5 + b);
  v1::NodeBusy* n0 = s->add_busy_per_node();
  n0->set_node(0);
  n0->set_busy_pct(80.25 - b);
  v1::NodeBusy* n1 = s->add_busy_per_node();
  n1->set_node(1);
  n1->set_busy_pct(90.5 - b);
  s->set_ctxt_per_s(1234567.0 + b);
  s->set_intr_per_s(45678.5 + b);
  s->set_forks_per_s(2345.25 + b);
  s->set_runnable(130 + static_cast<unsigned>(b));
  s->set_blocked(2);
  if (!sparse) {
    s->set_wait_share_pct(41.5 + b);
    s->set_newidle_lb_per_s(678.0 + b);
    s->set_newidle_failed_pct(12.25 + b);
    s->set_run_delay_ms_per_s(345.5 + b);
    s->set_psi_some_pct(7.75 + b);
    s->set_numa_pages_migrated_per_s(11.0 + b);
    s->set_numa_miss_per_s(3.5 + b);
  }
  s->set_load1(96.5 + b);
  if (k == 1) {
    s->set_starved(true);
    s->set_starved_reason("crowd then idle: runnable 131 >= 128 PUs, then idle 85%");
  }
  return env;
}

// The sample_run stream with two Samples before each IterationResult
// (sparse ones for position 2), a SampleSummary and quiet-box wait in each
// result: 13 envelopes, seq 1..13. Iteration i (0-based) waited 1.5 + i s
// for a quiet box; the third gave up.
inline std::vector<v1::Envelope> sampled_run(const std::string& run_id = kRun) {
  std::vector<v1::Envelope> plain = sample_run(run_id);
  std::vector<v1::Envelope> out(plain.begin(), plain.begin() + 3);
  unsigned long long seq = 3;
  for (unsigned i = 0; i < 3; ++i) {
    for (unsigned k = 0; k < 2; ++k) out.push_back(make_sample(++seq, run_id, i, k, i == 2));
    v1::Envelope result = plain[3 + i];
    result.set_seq(++seq);
    result.set_sent_at_ns(kT0 + static_cast<long long>(seq) * 1000000000LL);
    v1::IterationResult* r = result.mutable_iteration_result();
    v1::SampleSummary* sum = r->mutable_sample_summary();
    sum->set_samples(2);
    sum->set_starved_intervals(1);
    const double b = 10.0 * i;
    const std::vector<std::pair<std::string, double>> means = {
        {"idle_pct", 13.0 + b},       {"ctxt_per_s", 1234567.5 + b},    {"runnable", 130.25 + b},
        {"wait_share_pct", 42.0 + b}, {"newidle_lb_per_s", 678.25 + b}, {"psi_some_pct", 8.0 + b}};
    for (const auto& [name, mean] : means) {
      if (i == 2 &&
          (name == "wait_share_pct" || name == "newidle_lb_per_s" || name == "psi_some_pct")) {
        continue;  // absent, as in the sparse samples
      }
      v1::SampleStat* st = sum->add_stats();
      st->set_name(name);
      st->set_unit(name == "runnable"                        ? "tasks"
                   : name.find("per_s") != std::string::npos ? "/s"
                                                             : "%");
      st->set_mean(mean);
      st->set_p95(mean + 0.5);
    }
    r->set_quiet_wait_s(1.5 + i);
    r->set_quiet_gave_up(i == 2);
    if (i == 2) {
      r->set_disturbed(true);
      r->set_disturbed_reason("quiet check gave up after 10 s");
      r->set_attempts(2);
    }
    out.push_back(result);
  }
  v1::Envelope finished = plain.back();
  finished.set_seq(++seq);
  finished.set_sent_at_ns(kT0 + static_cast<long long>(seq) * 1000000000LL);
  out.push_back(finished);
  return out;
}

}  // namespace schedrig::testing
