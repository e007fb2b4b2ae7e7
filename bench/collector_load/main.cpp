// collector_load (issue 12): the real `schedrig serve` under simulated
// agents over TLS loopback (docs/architecture.md "Server").
//   throughput: N agents stream Samples and IterationResults as fast as
//               acks allow (at most W unacked each) -> envelopes/s stored
//               (goal >= 50k/s on the 2-core dev box), checked against the
//               store's envelopes table afterwards;
//   latency:    N agents at 10 Hz -> p50/p99/max send-to-Ack;
//   scale:      1000 idle agents connected -> serve's RSS, per agent.
// Rounds interleave the modes and the table gives medians (the box is shared).
//
//   cmake --preset bench && cmake --build build-bench --target collector_load schedrig
//   build-bench/bin/collector_load [--mode all] [--json] ...
#include <signal.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <iostream>

#include <spdlog/spdlog.h>
#include <CLI/CLI.hpp>

#include "bench/collector_load/bench_dir.h"
#include "bench/collector_load/modes.h"
#include "bench/collector_load/options.h"
#include "bench/collector_load/proc_stats.h"
#include "bench/collector_load/report.h"
#include "bench/collector_load/serve_process.h"

namespace {

using namespace schedrig::bench;

// SIGINT/SIGTERM: the serve child goes too (the temp dir stays).
void on_signal(int) {
  kill_live_serve_child();
  ::_exit(130);
}

std::string default_schedrig() {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return (self.parent_path() / "schedrig").string();
}

void add_flags(CLI::App& app, Options& o) {
  app.add_option("--mode", o.mode, "throughput | latency | scale | all")
      ->check(CLI::IsMember({"throughput", "latency", "scale", "all"}));
  app.add_option("--agents", o.agents, "simulated agents for throughput and latency")
      ->check(CLI::Range(std::size_t{1}, std::size_t{4096}));
  app.add_option("--seconds", o.seconds, "measured seconds per throughput/latency round")
      ->check(CLI::Range(0.5, 3600.0));
  app.add_option("--idle", o.idle, "idle agents for scale")
      ->check(CLI::Range(std::size_t{1}, std::size_t{8000}));
  app.add_option("--window", o.window, "unacked envelopes per agent at most (throughput)")
      ->check(CLI::Range(std::size_t{2}, std::size_t{100000}));
  app.add_option("--hz", o.hz, "Samples per second per agent (latency)")
      ->check(CLI::Range(0.1, 1000.0));
  app.add_option("--repeats", o.repeats, "rounds of each mode, interleaved")
      ->check(CLI::Range(1, 100));
  app.add_option("--schedrig", o.schedrig, "the schedrig binary (default: beside this one)");
  app.add_flag("--keep-dir", o.keep_dir, "keep the temp dir (stores, serve logs)");
  app.add_flag("--json", o.json, "JSON on stdout instead of the table");
}

bool wants(const Options& o, const char* mode) { return o.mode == "all" || o.mode == mode; }

Rounds run_rounds(const BenchDir& dir, const Options& o) {
  Rounds rounds;
  rounds.load_before = load_average_1m();
  for (int i = 0; i < o.repeats; ++i) {
    if (wants(o, "throughput")) {
      rounds.throughput.push_back(run_throughput(dir, o, i));
      print_progress(std::cerr, rounds.throughput.back());
    }
    if (wants(o, "latency")) {
      rounds.latency.push_back(run_latency(dir, o, i));
      print_progress(std::cerr, rounds.latency.back());
    }
    if (wants(o, "scale")) {
      rounds.scale.push_back(run_scale(dir, o, i));
      print_progress(std::cerr, rounds.scale.back());
    }
  }
  return rounds;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  CLI::App app{"collector_load: schedrig serve under simulated agents over TLS loopback"};
  add_flags(app, o);
  CLI11_PARSE(app, argc, argv);
  if (o.schedrig.empty()) o.schedrig = default_schedrig();
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  std::signal(SIGPIPE, SIG_IGN);
  spdlog::set_level(spdlog::level::warn);
  try {
    const std::size_t tokens = std::max(wants(o, "scale") ? o.idle : 0, o.agents);
    BenchDir dir(tokens, o.keep_dir);
    if (o.keep_dir) std::cerr << "collector_load: keeping " << dir.path() << "\n";
    const Rounds rounds = run_rounds(dir, o);
    if (o.json) {
      std::cout << rounds_json(o, rounds).dump(2) << "\n";
    } else {
      print_table(std::cout, o, rounds);
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "collector_load: " << e.what() << "\n";
    return 1;
  }
}
