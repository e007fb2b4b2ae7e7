// spool_cost: what the agent's spool costs a run (issue 13, goal <= 1 %
// throughput): the fork and wakeup workloads run through the real runner
// (agent/runner) with the sampler at 10 Hz, their envelopes going either
// through the spool as the live link sends them (stamp, encode, append,
// and the host's ack as it comes) or only stamped and encoded (the link's
// work without the spool). Rounds alternate A B A B in one process, so
// drift on this shared box hits both; the figure is the ratio of medians
// of the per-iteration primary metric (ops/s), per case.
//
//   cmake --preset bench && cmake --build build-bench --target spool_cost
//   build-bench/bin/spool_cost [--rounds N] [--iterations N] [--duration-s S] [--json]
//
// Also reports the spool's fsyncs per second during the spooled rounds.
// The spool lives in $SCHEDRIG_BENCH_DIR or /tmp, removed afterwards; no
// knob is changed (the variant has none).
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "agent/knobs/knob_controller.h"
#include "agent/runner/runner.h"
#include "agent/spool/spool.h"
#include "agent/topology/topology.h"
#include "common/envelope_stamp.h"
#include "common/ids.h"
#include "common/plan/plan_yaml.h"

namespace {

namespace v1 = schedrig::v1;
using Clock = std::chrono::steady_clock;

struct Options {
  int rounds = 4;  // per mode
  int iterations = 3;
  double duration_s = 1.0;
  bool json = false;
};

std::string plan_text(const Options& o) {
  return fmt::format(R"(name: spool-cost
iterations: {}
duration_s: {}
warmup_s: 0.2
cooldown_s: 0.1
order: interleaved
sample_hz: 10
quiet: {{timeout_s: 0}}
cases:
  - name: fork
    workload: fork
    params: {{workers: auto, fork_max: 1}}
    placement: all
  - name: wakeup
    workload: wakeup
    params: {{message_threads: 1, workers_per_message: auto, think_ops: 0}}
    placement: all
variants:
  - name: as-found
)",
                     o.iterations, o.duration_s);
}

// The live link's per-envelope work: stamp and encode; with a spool also
// append it and take the host's ack at once (segments roll and go).
class LinkLikeSink : public schedrig::runner::RunSink {
 public:
  LinkLikeSink(schedrig::spool::Spool* spool, const std::string& instance_id)
      : spool_(spool), stamper_({"bench-01", "bench-boot", instance_id}) {}

  void run_started(const v1::RunStarted& m) override {
    v1::Envelope e;
    *e.mutable_run_started() = m;
    send(e);
  }
  void iteration_done(const v1::IterationResult& m) override {
    results.push_back(m);
    v1::Envelope e;
    *e.mutable_iteration_result() = m;
    send(e);
  }
  void run_finished(const v1::RunFinished& m) override {
    v1::Envelope e;
    *e.mutable_run_finished() = m;
    send(e);
  }
  void sample(const v1::Sample& m) override {
    v1::Envelope e;
    *e.mutable_sample() = m;
    send(e);
  }

  std::vector<v1::IterationResult> results;

 private:
  void send(v1::Envelope& e) {
    const std::lock_guard lock(mu_);  // the link stamps and queues under one lock
    const std::uint64_t seq = stamper_.stamp(e);
    wire_bytes_ += e.SerializeAsString().size();
    if (!spool_) return;
    spool_->append(e);
    spool_->ack(e.instance_id(), seq);
  }

  schedrig::spool::Spool* spool_;
  schedrig::EnvelopeStamper stamper_;
  std::mutex mu_;
  std::size_t wire_bytes_ = 0;
};

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct Figures {
  std::map<std::string, std::vector<double>> ops;            // case -> per-iteration primary metric
  std::map<std::string, std::vector<double>> round_medians;  // case -> one median per round
  double seconds = 0;
  std::uint64_t fsyncs = 0;
};

void run_round(const Options& o, bool with_spool, const std::string& dir, Figures& f) {
  v1::StartRun start;
  start.set_run_id(schedrig::make_uuid_v4());
  *start.mutable_plan() = schedrig::parse_plan_yaml(plan_text(o), "spool_cost");
  const auto topo = schedrig::topology::load_topology({});
  schedrig::knobs::KnobController knobs(schedrig::procfs::Root::live(), dir + "/state");
  std::optional<schedrig::spool::Spool> spool;
  if (with_spool) spool.emplace(dir + "/spool");
  LinkLikeSink sink(spool ? &*spool : nullptr, schedrig::make_uuid_v4());
  const std::atomic<bool> stop{false};
  const auto t0 = Clock::now();
  schedrig::runner::run_plan(start, topo, sink, knobs, stop);
  f.seconds += std::chrono::duration<double>(Clock::now() - t0).count();
  if (spool) f.fsyncs += spool->stats().fsyncs;
  std::map<std::string, std::vector<double>> round;
  for (const auto& r : sink.results) {
    if (r.status() == v1::STATUS_OK && r.metrics_size() > 0) {
      f.ops[r.case_name()].push_back(r.metrics(0).value());
      round[r.case_name()].push_back(r.metrics(0).value());
    }
  }
  for (const auto& [name, ops] : round) f.round_medians[name].push_back(median(ops));
}

// The cost of each A B pair of rounds, % (1 - on / off): its spread shows
// how much of the median cost is the box's noise.
std::vector<double> paired_costs_pct(const std::vector<double>& on,
                                     const std::vector<double>& off) {
  std::vector<double> costs;
  for (std::size_t i = 0; i < std::min(on.size(), off.size()); ++i) {
    if (off[i] > 0) costs.push_back((1 - on[i] / off[i]) * 100);
  }
  std::sort(costs.begin(), costs.end());
  return costs;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"the spool's cost to the fork and wakeup workloads, A B A B"};
  app.add_option("--rounds", o.rounds, "runs per mode")->check(CLI::Range(1, 100));
  app.add_option("--iterations", o.iterations, "iterations per case per run")
      ->check(CLI::Range(1, 100));
  app.add_option("--duration-s", o.duration_s, "measured seconds per iteration")
      ->check(CLI::Range(0.1, 60.0));
  app.add_flag("--json", o.json, "one JSON object instead of the table");
  CLI11_PARSE(app, argc, argv);

  const char* base = std::getenv("SCHEDRIG_BENCH_DIR");
  const std::string dir =
      fmt::format("{}/spool_cost.{}", base ? base : "/tmp", static_cast<long>(getpid()));
  std::filesystem::create_directories(dir);
  Figures with, without;
  for (int r = 0; r < o.rounds; ++r) {
    run_round(o, true, dir, with);
    run_round(o, false, dir, without);
    std::cerr << fmt::format("round {}/{} done\n", r + 1, o.rounds);
  }
  std::filesystem::remove_all(dir);

  nlohmann::json out;
  out["fsyncs_per_s"] = with.seconds > 0 ? static_cast<double>(with.fsyncs) / with.seconds : 0;
  double loadavg[1] = {0};
  getloadavg(loadavg, 1);
  out["load1"] = loadavg[0];
  for (const auto& [name, ops] : without.ops) {
    const double off = median(ops), on = median(with.ops[name]);
    const auto pairs = paired_costs_pct(with.round_medians[name], without.round_medians[name]);
    out["cases"][name] = {{"spool_off_ops_per_s", off},
                          {"spool_on_ops_per_s", on},
                          {"cost_pct", off > 0 ? (1 - on / off) * 100 : 0},
                          {"paired_cost_pct_median", median(pairs)},
                          {"paired_cost_pct_min", pairs.empty() ? 0 : pairs.front()},
                          {"paired_cost_pct_max", pairs.empty() ? 0 : pairs.back()}};
  }
  if (o.json) {
    std::cout << out.dump(2) << "\n";
    return 0;
  }
  for (const auto& [name, c] : out["cases"].items()) {
    std::cout << fmt::format(
        "{:8} spool off {:>10.0f} ops/s  on {:>10.0f} ops/s  cost {:+.2f} %  (per A B pair: median "
        "{:+.2f} %, {:+.2f} to {:+.2f} %)\n",
        name, c["spool_off_ops_per_s"].get<double>(), c["spool_on_ops_per_s"].get<double>(),
        c["cost_pct"].get<double>(), c["paired_cost_pct_median"].get<double>(),
        c["paired_cost_pct_min"].get<double>(), c["paired_cost_pct_max"].get<double>());
  }
  std::cout << fmt::format("fsyncs/s at 10 Hz sampling: {:.2f} (load1 {:.1f})\n",
                           out["fsyncs_per_s"].get<double>(), loadavg[0]);
  return 0;
}
