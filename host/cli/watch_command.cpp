// `schedrig watch [RUN]`: a run's samples and results as they arrive, read
// from the store while the collector (`serve`, `lab`) writes it.
#include <pthread.h>
#include <signal.h>

#include <cerrno>
#include <chrono>
#include <ctime>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "common/cli_error.h"
#include "host/cli/commands.h"
#include "host/cli/read_store.h"
#include "host/cli/run_match.h"
#include "host/report/report.h"
#include "host/store/store.h"

namespace schedrig::host {
namespace {

// 128 + SIGINT, as a shell reports a command Ctrl-C stopped.
constexpr int kExitInterrupted = 130;

struct WatchOptions {
  std::string run;
  std::string db;
  unsigned poll_ms = 500;
  bool json = false;
};

// SIGINT and SIGTERM blocked, so they wait for sigtimedwait in
// wait_or_interrupted instead of killing the process mid-line.
sigset_t block_stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  return set;
}

// Waits `ms`; true when SIGINT or SIGTERM came meanwhile (or was pending).
bool wait_or_interrupted(const sigset_t& stop_signals, unsigned ms) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  for (;;) {
    const auto left = until - std::chrono::steady_clock::now();
    if (left <= std::chrono::steady_clock::duration::zero()) return false;
    const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(left).count();
    const timespec timeout{static_cast<time_t>(ns / 1000000000),
                           static_cast<long>(ns % 1000000000)};
    if (sigtimedwait(&stop_signals, nullptr, &timeout) > 0) return true;
    if (errno == EAGAIN) return false;  // EINTR (another signal): wait the rest
  }
}

// Writes what one poll brought, in the order it happened: a position's
// samples before its result (samples come during the window, the result
// after it).
class WatchPrinter {
 public:
  WatchPrinter(const WatchOptions& o, std::string run_id, unsigned planned)
      : json_(o.json), run_id_(std::move(run_id)), lines_(std::cout, planned) {}

  void start(const std::string& status, unsigned planned) {
    if (json_) return;
    std::cout << fmt::format("run {} ({}, {} iterations planned)\n", run_id_, status, planned);
    lines_.header();
  }

  void print(const store::RunProgress& p) {
    auto s = p.samples.begin();
    auto it = p.iterations.begin();
    while (s != p.samples.end() || it != p.iterations.end()) {
      if (it == p.iterations.end() || (s != p.samples.end() && s->position <= it->position)) {
        sample(*s++);
      } else {
        iteration(*it++);
      }
    }
  }

  void finish(const std::string& status) {
    if (json_) {
      std::cout << nlohmann::json{{"event", "run_finished"},
                                  {"run_id", run_id_},
                                  {"status", status}}
                       .dump()
                << "\n";
    } else {
      std::cout << fmt::format("run {} {}: {} iteration results\n", run_id_, status, results_);
    }
  }

 private:
  void sample(const store::SampleRecord& s) {
    if (!json_) return lines_.sample(s);
    nlohmann::json j = report::sample_json(s);
    j["event"] = "sample";
    std::cout << j.dump() << "\n";
  }

  void iteration(const store::IterationRecord& it) {
    ++results_;
    if (!json_) return lines_.iteration(it);
    nlohmann::json j = report::iteration_json(it);
    j["event"] = "iteration";
    j["run_id"] = run_id_;
    j["position"] = it.position;
    std::cout << j.dump() << "\n";
  }

  bool json_;
  std::string run_id_;
  report::SampleLineWriter lines_;
  unsigned results_ = 0;
};

int watch(const store::Store& s, const WatchOptions& o) {
  const std::vector<std::string> ids = s.run_ids(o.run);
  if (o.run.empty() && ids.empty()) throw CliError(kExitUsage, "no runs in the store yet");
  const std::string run_id = o.run.empty() ? ids.back() : match_run_id(ids, o.run);
  const sigset_t stop_signals = block_stop_signals();
  long long last_sample = 0, last_iteration = 0;
  std::unique_ptr<WatchPrinter> printer;
  for (;;) {
    // A new read transaction per poll: it sees what the writer committed.
    const store::RunProgress p = s.run_progress(run_id, last_sample, last_iteration);
    if (!printer) {
      printer = std::make_unique<WatchPrinter>(o, run_id, p.planned_iterations);
      printer->start(p.status, p.planned_iterations);
    }
    printer->print(p);
    for (const auto& x : p.samples) last_sample = std::max(last_sample, x.id);
    for (const auto& x : p.iterations) last_iteration = std::max(last_iteration, x.id);
    if (p.status != "running") printer->finish(p.status);
    std::cout << std::flush;
    if (p.status != "running") return kExitOk;
    if (wait_or_interrupted(stop_signals, o.poll_ms)) return kExitInterrupted;
  }
}

}  // namespace

void add_watch_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<WatchOptions>();
  auto* cmd = app.add_subcommand(
      "watch",
      "follow a run live: one line per sample as the agent's sampler sends them (time, "
      "position/planned, case, variant, iteration, ops so far, idle %, runnable, ctxt/s, wait "
      "share, newidle/s, PSI, STARVED flag) and a line per iteration result (its primary "
      "metric). Reads the store while `schedrig serve` or `schedrig lab` writes it; exits 0 "
      "once the run is no longer running (a finished run is shown whole), 130 on Ctrl-C");
  cmd->add_option("run", o->run, "run_id or a unique prefix of it (default: the newest run)");
  cmd->add_option("--db", o->db, "SQLite file (default: the lab's schedrig.db)");
  cmd->add_option("--poll-ms", o->poll_ms, "how often to look for new rows, ms (default 500)")
      ->check(CLI::Range(10u, 60000u));
  cmd->add_flag("--json", o->json,
                "NDJSON, one object per line: {\"event\":\"sample\", ...as results --samples} per "
                "sample, {\"event\":\"iteration\", ...as results --json} per result, "
                "{\"event\":\"run_finished\",\"run_id\",\"status\"} last");
  cmd->callback([o, &exit_code] {
    exit_code = read_store(o->db, [&](const store::Store& s) { return watch(s, *o); });
  });
}

}  // namespace schedrig::host
