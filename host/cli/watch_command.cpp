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
#include "host/cli/remote_watch.h"
#include "host/cli/run_match.h"
#include "host/cli/server_options.h"
#include "host/cli/watch_printer.h"
#include "host/client/remote_runs.h"
#include "host/report/report.h"
#include "host/store/store.h"
#include "host/store/store_error.h"

namespace schedrig::host {
namespace {

// Silence after which watch warns, once, that the run may be orphaned: far
// longer than the gap between two samples or results of a usual plan.
constexpr std::chrono::seconds kStaleAfter{120};

struct WatchOptions {
  std::string run;
  std::string db;
  unsigned poll_ms = 500;
  double wait_s = 30;
  bool json = false;
  ServerOptions server;
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

// Not there yet: the store or the run may still be being created by `lab`
// or `serve`, so watch waits for it (--wait-s) instead of failing.
class NotYet : public CliError {
 public:
  using CliError::CliError;
};

// The run `o.run` names (default: the newest). NotYet when there is none yet;
// CliError when the prefix is ambiguous.
std::string find_run_id(const store::Store& s, const WatchOptions& o) {
  const std::vector<std::string> ids = s.run_ids(o.run);
  if (ids.empty()) {
    throw NotYet(ErrorKind::kUsage, o.run.empty() ? "no runs in the store yet"
                                                  : fmt::format("no run matches '{}'", o.run));
  }
  return o.run.empty() ? ids.back() : match_run_id(ids, o.run);
}

// The stored run `run_id` (its reason and dropped_samples for the end line).
store::RunRecord stored_run(const store::Store& s, const std::string& run_id) {
  for (store::RunRecord& r : s.runs(run_id, {.sample_summaries = false, .histograms = false})) {
    if (r.run_id == run_id) return r;
  }
  return {};
}

int watch(const store::Store& s, const WatchOptions& o, const sigset_t& stop_signals) {
  const std::string run_id = find_run_id(s, o);
  long long last_sample = 0, last_iteration = 0;
  std::unique_ptr<WatchPrinter> printer;
  auto last_news = std::chrono::steady_clock::now();
  bool said_stale = false;
  for (;;) {
    // A new read transaction per poll: it sees what the writer committed.
    const store::RunProgress p = s.run_progress(run_id, last_sample, last_iteration);
    if (!printer) {
      printer = std::make_unique<WatchPrinter>(std::cout, o.json, run_id, p.planned_iterations);
      printer->start(p.status);
    }
    printer->print(p);
    for (const auto& x : p.samples) last_sample = std::max(last_sample, x.id);
    for (const auto& x : p.iterations) last_iteration = std::max(last_iteration, x.id);
    if (p.status != "running") {
      const store::RunRecord r = stored_run(s, run_id);
      printer->finish(p.status, r.reason, r.dropped_samples);
    }
    std::cout << std::flush;
    if (p.status != "running") return kExitOk;
    if (!p.samples.empty() || !p.iterations.empty()) {
      last_news = std::chrono::steady_clock::now();
      said_stale = false;
    } else if (!said_stale && std::chrono::steady_clock::now() - last_news > kStaleAfter) {
      std::cerr << fmt::format(
          "no new samples or results for {} s while run {} is still 'running': its agent or "
          "collector may be gone (the run stays 'running' until a RunFinished arrives)\n",
          kStaleAfter.count(), run_id);
      said_stale = true;
    }
    if (wait_or_interrupted(stop_signals, o.poll_ms)) return kExitInterrupted;
  }
}

// Opens the store read-only and follows the run. NotYet when the store is
// missing or still being created (StoreError::not_ready); CliError of the
// StoreError's own kind (StoreError::kind_for) for any other.
int watch_store(const WatchOptions& o, const sigset_t& stop_signals) {
  try {
    const store::Store s(db_path_or_default(o.db), store::Store::Mode::kReadOnly);
    return watch(s, o, stop_signals);
  } catch (const store::StoreError& e) {
    if (e.not_ready()) throw NotYet(ErrorKind::kUsage, e.what());
    throw CliError(e.kind(), e.what());
  }
}

// Opens the store and follows the run, retrying while either is not there
// yet, for up to o.wait_s (a store being created reads as missing, or as not
// yet a schedrig store).
int watch_when_there(const WatchOptions& o) {
  const sigset_t stop_signals = block_stop_signals();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(o.wait_s);
  bool said = false;
  for (;;) {
    std::string why;
    try {
      return watch_store(o, stop_signals);
    } catch (const NotYet& e) {
      why = e.what();
    }
    if (std::chrono::steady_clock::now() >= deadline) throw CliError(ErrorKind::kUsage, why);
    if (!said) std::cerr << fmt::format("waiting for the run ({})...\n", why);
    said = true;
    if (wait_or_interrupted(stop_signals, o.poll_ms)) return kExitInterrupted;
  }
}

// From the server when --server (or SCHEDRIG_SERVER without --db) says so,
// else from the store.
int run_watch(const WatchOptions& o) {
  if (!use_server(o.server, o.db)) return watch_when_there(o);
  const auto api = make_api_client(o.server);
  return watch_on_server(*api, o.run.empty() ? client::newest_run_id(*api) : o.run, o.json);
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
      "once the run is no longer running (a finished run is shown whole), " +
          std::to_string(kExitInterrupted) + " on Ctrl-C");
  cmd->add_option("run", o->run,
                  "run_id or a unique prefix of it (default: the newest run; with --server, the "
                  "one last submitted)");
  cmd->add_option("--db", o->db, "SQLite file (default: the lab's schedrig.db)");
  cmd->add_option("--poll-ms", o->poll_ms, "how often to look for new rows, ms (default 500)")
      ->check(CLI::Range(10u, 60000u));
  cmd->add_flag("--json", o->json,
                "NDJSON, one object per line: {\"event\":\"sample\", ...as results --samples} per "
                "sample, {\"event\":\"iteration\", ...as results --json} per result, "
                "{\"event\":\"run_finished\",\"run_id\",\"status\"[,\"reason\"]} last");
  cmd->add_option("--wait-s", o->wait_s,
                  "how long to wait for the store and the run to appear (lab and serve create "
                  "them as they start), s (default 30)")
      ->check(CLI::Range(0.0, 86400.0));
  add_server_options(*cmd, o->server);
  cmd->callback([o, &exit_code] { exit_code = run_watch(*o); });
}

}  // namespace schedrig::host
