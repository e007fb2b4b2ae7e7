// spool_append: the agent spool's cost (agent/spool, docs/architecture.md
// "Spool") at the envelope mix of a run sampled at 10 Hz: ten Samples per
// second and an IterationResult every --iteration-s seconds, the host acking
// each envelope as it comes (the spool's segments roll and are deleted).
//
//   cmake --preset bench && cmake --build build-bench --target spool_append
//   build-bench/bin/spool_append [--seconds S] [--iteration-s S] [--appends N]
//
// Two figures:
//   burst     N appends of the mix back to back: appends/s, fsyncs per
//             append, us per Sample and per IterationResult append;
//   realtime  the mix at its real pace for --seconds: fsyncs/s (the disk
//             cost a run pays), and the append time's p50 / max.
// The spool lives in $SCHEDRIG_BENCH_DIR or /tmp, removed afterwards.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "agent/spool/spool.h"
#include "common/envelope_codec.h"

namespace {

namespace v1 = schedrig::v1;
using schedrig::spool::AppendOutcome;
using schedrig::spool::Spool;
using Clock = std::chrono::steady_clock;

constexpr const char* kInstance = "0b5e8f2a-1c2d-4e3f-8a9b-0c1d2e3f4a5b";
constexpr const char* kRun = "3f2a9c1e-5b6d-4e7f-8a9b-1c2d3e4f5a6b";

v1::Envelope stamped(std::uint64_t seq) {
  v1::Envelope env;
  env.set_protocol_version(schedrig::kProtocolVersion);
  env.set_agent_id("bench-01");
  env.set_boot_id("7d1c6a2e-0000-4000-8000-000000000001");
  env.set_instance_id(kInstance);
  env.set_seq(seq);
  env.set_sent_at_ns(1'700'000'000'000'000'000 + static_cast<std::int64_t>(seq));
  return env;
}

// A Sample as the runner fills it on a 2-node box.
v1::Envelope sample(std::uint64_t seq) {
  v1::Envelope env = stamped(seq);
  v1::Sample* s = env.mutable_sample();
  s->set_run_id(kRun);
  s->set_case_name("fork");
  s->set_variant("eevdf-base");
  s->set_iteration(3);
  s->set_t_ns(1'700'000'000'000'000'000);
  s->set_interval_s(0.1);
  s->set_ops_so_far(seq * 1234);
  s->set_idle_pct(3.5);
  for (std::uint32_t node = 0; node < 2; ++node) {
    v1::NodeBusy* b = s->add_busy_per_node();
    b->set_node(node);
    b->set_busy_pct(96.5);
  }
  s->set_ctxt_per_s(412345.0);
  s->set_intr_per_s(23456.0);
  s->set_forks_per_s(8765.0);
  s->set_runnable(9);
  s->set_wait_share_pct(12.5);
  s->set_run_delay_ms_per_s(85.0);
  s->set_psi_some_pct(4.25);
  s->set_load1(8.5);
  return env;
}

// An IterationResult with the fork workload's metrics and a few knobs.
v1::Envelope result(std::uint64_t seq) {
  v1::Envelope env = stamped(seq);
  v1::IterationResult* r = env.mutable_iteration_result();
  r->set_run_id(kRun);
  r->set_case_name("fork");
  r->set_variant("eevdf-base");
  r->set_iteration(3);
  for (const char* name :
       {"bogo_ops_per_s", "fork_us_p50", "fork_us_p99", "cpu_pct", "migrations"}) {
    v1::Metric* m = r->add_metrics();
    m->set_name(name);
    m->set_value(12345.678);
    m->set_unit("ops/s");
    m->set_direction(v1::HIGHER_IS_BETTER);
  }
  (*r->mutable_knobs())["kernel.sched_autogroup_enabled"] = "0";
  (*r->mutable_knobs())["sched/migration_cost_ns"] = "500000";
  r->set_cpus("0-7");
  return env;
}

v1::Envelope hello(std::uint64_t seq) {
  v1::Envelope env = stamped(seq);
  env.mutable_hello()->set_hostname("bench-01");
  env.mutable_hello()->set_kernel_release("6.8.0");
  return env;
}

// Appends `env` and acks it, as a host that keeps up does; returns the
// append's time.
double append_acked(Spool& spool, const v1::Envelope& env) {
  const auto start = Clock::now();
  if (spool.append(env).outcome != AppendOutcome::kStored)
    throw std::runtime_error("spool refused an envelope: raise max_bytes");
  const double us = std::chrono::duration<double, std::micro>(Clock::now() - start).count();
  spool.ack(kInstance, env.seq());
  return us;
}

std::string bench_dir(const std::string& leaf) {
  const char* base = std::getenv("SCHEDRIG_BENCH_DIR");
  return fmt::format("{}/{}-{}", base ? base : "/tmp", leaf, ::getpid());
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

void burst(std::uint64_t appends, double iteration_s) {
  const std::string dir = bench_dir("spool-burst");
  const auto samples_per_result = static_cast<std::uint64_t>(iteration_s * 10);
  std::vector<double> sample_us, result_us;
  double seconds = 0;
  schedrig::spool::SpoolStats stats;
  {
    Spool spool(dir);
    append_acked(spool, hello(1));
    const auto start = Clock::now();
    for (std::uint64_t seq = 2; seq < appends + 2; ++seq) {
      const bool is_result = (seq % (samples_per_result + 1)) == 0;
      (is_result ? result_us : sample_us)
          .push_back(append_acked(spool, is_result ? result(seq) : sample(seq)));
    }
    seconds = std::chrono::duration<double>(Clock::now() - start).count();
    stats = spool.stats();
  }
  std::filesystem::remove_all(dir);
  fmt::print(
      "burst     {} appends ({} results): {:.0f} appends/s, {:.3f} fsyncs/append, "
      "Sample p50 {:.1f} us, IterationResult p50 {:.1f} us\n",
      appends, result_us.size(), static_cast<double>(appends) / seconds,
      static_cast<double>(stats.fsyncs) / static_cast<double>(appends), median(sample_us),
      median(result_us));
}

void realtime(double seconds, double iteration_s) {
  const std::string dir = bench_dir("spool-realtime");
  std::vector<double> us;
  schedrig::spool::SpoolStats stats;
  {
    Spool spool(dir);
    append_acked(spool, hello(1));
    const auto base = spool.stats().fsyncs;
    const auto start = Clock::now();
    std::uint64_t seq = 2;
    auto next_result = start + std::chrono::duration<double>(iteration_s);
    for (auto tick = start; tick < start + std::chrono::duration<double>(seconds);
         tick += std::chrono::milliseconds(100)) {
      std::this_thread::sleep_until(tick);
      us.push_back(append_acked(spool, sample(seq++)));
      if (tick >= next_result) {
        us.push_back(append_acked(spool, result(seq++)));
        next_result +=
            std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(iteration_s));
      }
    }
    stats = spool.stats();
    stats.fsyncs -= base;
  }
  std::filesystem::remove_all(dir);
  fmt::print(
      "realtime  {:.0f} s at 10 Hz, a result every {:.1f} s: {} appends, {:.2f} fsyncs/s, "
      "append p50 {:.1f} us, max {:.0f} us\n",
      seconds, iteration_s, us.size(), static_cast<double>(stats.fsyncs) / seconds, median(us),
      *std::max_element(us.begin(), us.end()));
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"the agent spool's append cost at a 10 Hz sample mix"};
  double seconds = 10;
  double iteration_s = 2;
  std::uint64_t appends = 20000;
  app.add_option("--seconds", seconds, "length of the realtime phase");
  app.add_option("--iteration-s", iteration_s, "seconds between IterationResults");
  app.add_option("--appends", appends, "appends in the burst phase");
  CLI11_PARSE(app, argc, argv);
  burst(appends, iteration_s);
  realtime(seconds, iteration_s);
  return 0;
}
