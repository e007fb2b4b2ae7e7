// Envelope streams of whole runs for compare tests: a plan with named cases
// and variants, a fingerprint, and one IterationResult per (case, variant,
// iteration) with two metrics: "ops_per_s" (higher is better) and
// "wakeup_p99_us" (lower is better). Ingested into a real store, so the
// compare code sees RunRecords exactly as `schedrig compare` does.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common/envelope_codec.h"
#include "host/store/store.h"
#include "tests/host/store/sample_run.h"

namespace schedrig::testing {

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
};

inline std::vector<v1::Envelope> synthetic_run(const SyntheticRun& s) {
  std::vector<v1::Envelope> out;
  unsigned long long seq = s.first_seq - 1;
  v1::Envelope hello = make_envelope(++seq, s.instance);
  hello.mutable_hello()->set_hostname("altra-01.lab");
  hello.mutable_hello()->set_kernel_release(s.kernel);
  hello.mutable_hello()->set_allowed_pus(160);
  out.push_back(hello);

  v1::Envelope started = make_envelope(++seq, s.instance);
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
        v1::Envelope env = make_envelope(++seq, s.instance);
        v1::IterationResult* it = env.mutable_iteration_result();
        it->set_run_id(s.run_id);
        it->set_case_name(c);
        it->set_variant(v);
        it->set_iteration(i);
        it->set_position(position++);
        bool failed = false;
        for (const auto& [fv, fi] : s.failed) failed = failed || (fv == v && fi == i);
        it->set_status(failed ? v1::STATUS_FAILED : v1::STATUS_OK);
        if (failed) it->set_reason("watchdog: overran duration by 2 s");
        const double ops = s.ops(c, v, i);
        v1::Metric* m = it->add_metrics();
        m->set_name("ops_per_s");
        m->set_value(ops);
        m->set_unit("ops/s");
        m->set_direction(v1::HIGHER_IS_BETTER);
        v1::Metric* lat = it->add_metrics();
        lat->set_name("wakeup_p99_us");
        lat->set_value(1e6 / ops);
        lat->set_unit("us");
        lat->set_direction(s.latency_direction_unset ? v1::DIRECTION_UNSPECIFIED
                                                     : v1::LOWER_IS_BETTER);
        out.push_back(env);
      }
    }
  }
  v1::Envelope finished = make_envelope(++seq, s.instance);
  finished.mutable_run_finished()->set_run_id(s.run_id);
  finished.mutable_run_finished()->set_status(v1::STATUS_OK);
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
