// Envelope streams of whole runs for compare tests: a plan with named cases
// and variants, a fingerprint, and one IterationResult per (case, variant,
// iteration) with, by default, two metrics: "ops_per_s" (higher is better)
// and "wakeup_p99_us" (lower is better). Ingested into a real store, so the
// compare code sees RunRecords exactly as `schedrig compare` does.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common/envelope_codec.h"
#include "common/latency_buckets.h"
#include "host/store/store.h"
#include "tests/host/store/sample_run.h"

namespace schedrig::testing {

// A metric of the synthetic iterations: higher-is-better ones are ops x
// scale, lower-is-better ones 1e6 / ops x scale.
struct SyntheticMetric {
  std::string name, unit;
  bool higher_is_better = true;
  double scale = 1;
};

struct SyntheticRun {
  std::string run_id;
  std::string instance = kInstance;
  unsigned long long first_seq = 1;
  std::string kernel = "6.19.0-rc3";
  std::vector<std::string> cases = {"fork-all"};
  std::vector<std::string> variants = {"baseline", "no-ni-random"};
  unsigned iterations = 10;
  std::map<std::string, std::string> fingerprint_fields = {{"thp", "always"}, {"smt", "on"}};
  std::string sched_features = "PLACE_LAG RUN_TO_PARITY NI_RANDOM";
  // ops/s of (case, variant, iteration 1-based); latency is 1e6 / ops.
  std::function<double(const std::string&, const std::string&, unsigned)> ops;
  // Iterations reported as failed (value ignored): (variant, iteration).
  std::vector<std::pair<std::string, unsigned>> failed;
  bool latency_direction_unset = false;
  // Iterations the agent marked disturbed: (variant, iteration).
  std::vector<std::pair<std::string, unsigned>> disturbed;
  std::string boot_id = kBoot;                // every envelope's
  unsigned pus = 160;                         // Hello's allowed_pus
  std::map<std::string, std::string> params;  // every case's
  std::string placement = "all";              // every case's
  std::string cpus;                           // every iteration's cpulist ("" none)
  std::map<std::string, v1::Gate> gates;      // per case name
  std::vector<SyntheticMetric> metrics;       // empty: ops_per_s, wakeup_p99_us
  bool run_failed = false;  // RunFinished says failed, "quiet box: gave up 15 times"
  // Metric values per case: when set, metrics(case) replaces `metrics`.
  std::function<std::vector<SyntheticMetric>(const std::string&)> case_metrics;
  // When set: each ok iteration's "wakeup_latency" histogram (unit "us"),
  // as (latency ns, count) pairs, put in the agent's buckets.
  std::function<std::vector<std::pair<std::uint64_t, unsigned long long>>(
      const std::string&, const std::string&, unsigned)>
      latency_ns;
};

// The agent's histogram of (latency ns, count) pairs: non-empty buckets
// ascending, bounds in us.
inline void add_latency_histogram(
    v1::IterationResult& it, const std::vector<std::pair<std::uint64_t, unsigned long long>>& l) {
  std::map<std::size_t, unsigned long long> buckets;
  for (const auto& [ns, count] : l) buckets[latency_buckets::index_of(ns)] += count;
  v1::Histogram* h = it.add_histograms();
  h->set_name("wakeup_latency");
  h->set_unit("us");
  for (const auto& [index, count] : buckets) {
    h->add_lower_bounds(static_cast<double>(latency_buckets::lower_bound_ns(index)) / 1000.0);
    h->add_counts(count);
  }
}

inline bool listed(const std::vector<std::pair<std::string, unsigned>>& list,
                   const std::string& variant, unsigned i) {
  for (const auto& [v, n] : list) {
    if (v == variant && n == i) return true;
  }
  return false;
}

// The metrics of `c`'s iterations in `s`.
inline std::vector<SyntheticMetric> metrics_of(const SyntheticRun& s, const std::string& c) {
  if (s.case_metrics) return s.case_metrics(c);
  if (!s.metrics.empty()) return s.metrics;
  return {{"ops_per_s", "ops/s", true, 1}, {"wakeup_p99_us", "us", false, 1}};
}

inline std::vector<v1::Envelope> synthetic_run(const SyntheticRun& s) {
  std::vector<v1::Envelope> out;
  unsigned long long seq = s.first_seq - 1;
  const auto envelope = [&] {
    v1::Envelope env = make_envelope(++seq, s.instance);
    env.set_boot_id(s.boot_id);
    return env;
  };
  v1::Envelope hello = envelope();
  hello.mutable_hello()->set_hostname("altra-01.lab");
  hello.mutable_hello()->set_kernel_release(s.kernel);
  hello.mutable_hello()->set_allowed_pus(s.pus);
  out.push_back(hello);

  v1::Envelope started = envelope();
  v1::RunStarted* rs = started.mutable_run_started();
  rs->set_run_id(s.run_id);
  v1::Plan* plan = rs->mutable_plan();
  plan->set_name("fork-vs-features");
  plan->set_iterations(s.iterations);
  plan->set_duration_ns(1000000000ULL);
  for (const auto& c : s.cases) {
    v1::Case* pc = plan->add_cases();
    pc->set_name(c);
    pc->set_workload("fork");
    pc->set_placement(s.placement);
    for (const auto& [k, v] : s.params) (*pc->mutable_params())[k] = v;
    if (s.gates.count(c)) *pc->mutable_gate() = s.gates.at(c);
  }
  for (const auto& v : s.variants) plan->add_variants()->set_name(v);
  v1::Fingerprint* fp = rs->mutable_fingerprint();
  fp->set_kernel_release(s.kernel);
  fp->set_kernel_cmdline("BOOT_IMAGE=/vmlinuz ro quiet");
  fp->set_sched_features(s.sched_features);
  for (const auto& [k, v] : s.fingerprint_fields) fp->mutable_fields()->insert({k, v});
  rs->set_planned_iterations(static_cast<unsigned>(s.cases.size() * s.variants.size()) *
                             s.iterations);
  out.push_back(started);

  unsigned position = 0;
  for (unsigned i = 1; i <= s.iterations; ++i) {
    for (const auto& c : s.cases) {
      for (const auto& v : s.variants) {
        v1::Envelope env = envelope();
        v1::IterationResult* it = env.mutable_iteration_result();
        it->set_run_id(s.run_id);
        it->set_case_name(c);
        it->set_variant(v);
        it->set_iteration(i);
        it->set_position(position++);
        const bool failed = listed(s.failed, v, i);
        it->set_status(failed ? v1::STATUS_FAILED : v1::STATUS_OK);
        if (failed) it->set_reason("watchdog: overran duration by 2 s");
        if (listed(s.disturbed, v, i)) {
          it->set_disturbed(true);
          it->set_disturbed_reason("other work: 12.5% CPU of other processes (> 5%)");
        }
        it->set_cpus(s.cpus);
        const double ops = s.ops(c, v, i);
        for (const auto& spec : metrics_of(s, c)) {
          v1::Metric* m = it->add_metrics();
          m->set_name(spec.name);
          m->set_value((spec.higher_is_better ? ops : 1e6 / ops) * spec.scale);
          m->set_unit(spec.unit);
          m->set_direction(spec.higher_is_better       ? v1::HIGHER_IS_BETTER
                           : s.latency_direction_unset ? v1::DIRECTION_UNSPECIFIED
                                                       : v1::LOWER_IS_BETTER);
        }
        if (s.latency_ns && !failed) add_latency_histogram(*it, s.latency_ns(c, v, i));
        out.push_back(env);
      }
    }
  }
  v1::Envelope finished = envelope();
  finished.mutable_run_finished()->set_run_id(s.run_id);
  finished.mutable_run_finished()->set_status(s.run_failed ? v1::STATUS_FAILED : v1::STATUS_OK);
  if (s.run_failed) finished.mutable_run_finished()->set_reason("quiet box: gave up 15 times");
  out.push_back(finished);
  return out;
}

inline void ingest(store::Store& db, const std::vector<v1::Envelope>& envelopes) {
  for (const auto& env : envelopes) db.ingest(env, encode_envelope(env));
}

// Deterministic jitter in [-1, 1] for (variant, iteration): a fixed
// pattern, so tests see the same numbers on every build.
inline double jitter(unsigned i, unsigned salt = 0) {
  static const double pattern[] = {0.2, -0.9, 0.7, -0.4, 1.0, -0.1, 0.5, -0.6, 0.3, -0.8,
                                   0.9, -0.3, 0.1, -1.0, 0.6, -0.2, 0.4, -0.7, 0.8, -0.5};
  return pattern[(i + 7 * salt) % 20];
}

// Run A of the compare CLI stores: variants baseline, slower (5% below the
// baseline, its own jitter) and same, 10000 ops/s with 0.5% jitter; B is a
// copy under its own run and instance ids, for the caller to change.
struct RegressionRuns {
  SyntheticRun a, b;
};
inline RegressionRuns regression_runs(const std::string& run_a, const std::string& run_b) {
  RegressionRuns r;
  r.a.run_id = run_a;
  r.a.variants = {"baseline", "slower", "same"};
  r.a.ops = [](const std::string&, const std::string& v, unsigned i) {
    return 10000 * (1 + 0.005 * jitter(i, v == "baseline" ? 0 : 1)) * (v == "slower" ? 0.95 : 1);
  };
  r.b = r.a;
  r.b.run_id = run_b;
  r.b.instance = "0b5e8f2a-1c2d-4e3f-8a9b-0c1d2e3f4a5c";
  return r;
}

}  // namespace schedrig::testing
