#include "host/cli/run_wait.h"

#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "common/error.h"
#include "common/exit_codes.h"
#include "common/printable.h"
#include "common/progress_line.h"
#include "host/cli/remote_watch.h"
#include "host/client/json_read.h"
#include "host/client/remote_runs.h"
#include "host/client/run_events.h"
#include "host/compare/compare_table.h"
#include "host/compare/gate.h"
#include "host/report/compare_text.h"
#include "host/report/results_json.h"
#include "host/report/run_status_text.h"

namespace schedrig::host {
namespace {

// With several runs one poll waits this long, s, so every run gets its turn.
constexpr unsigned kSharedPollS = 1;

// A result as progress_line reads it (case, variant, iteration, status,
// the primary metric, quiet-box and starvation flags).
v1::IterationResult as_result(const store::IterationRecord& it) {
  v1::IterationResult r;
  r.set_case_name(it.case_name);
  r.set_variant(it.variant);
  r.set_iteration(it.iteration);
  r.set_status(it.status == "ok" ? v1::STATUS_OK : v1::STATUS_FAILED);
  r.set_reason(it.reason);
  if (!it.metrics.empty()) {
    r.add_metrics()->set_value(it.metrics.front().value);
    r.mutable_metrics(0)->set_unit(it.metrics.front().unit);
  }
  r.set_quiet_wait_s(it.quiet_wait_s);
  r.set_quiet_gave_up(it.quiet_gave_up);
  r.set_disturbed(it.disturbed);
  r.set_disturbed_reason(it.disturbed_reason);
  r.set_attempts(it.attempts);
  r.mutable_sample_summary()->set_starved_intervals(it.sample_summary.starved_intervals);
  return r;
}

// One run being followed and the lines it has printed.
struct Followed {
  client::RunFollower follower;
  std::string agent;
  std::size_t done = 0;
};

class RunsWaiter {
 public:
  RunsWaiter(client::ApiClient& client, const std::vector<QueuedRunRef>& runs, const WaitOptions& o)
      : o_(o), out_(o.json ? std::cerr : std::cout), several_(runs.size() > 1) {
    for (const auto& r : runs)
      followed_.push_back({client::RunFollower(client, r.run_id), r.agent_id});
  }

  // Polls the runs in turn until every one has ended.
  void follow() {
    const unsigned wait_s = several_ ? kSharedPollS : kLongPollS;
    for (bool open = true; open;) {
      open = false;
      for (auto& f : followed_) {
        if (f.follower.ended()) continue;
        for (const auto& event : client::poll_riding_outage(f.follower, wait_s, std::cerr))
          show(f, event);
        out_ << std::flush;
        open = open || !f.follower.ended();
      }
    }
  }

 private:
  std::string prefix(const Followed& f) const { return several_ ? printable(f.agent) + ": " : ""; }

  void show(Followed& f, const client::RunEvent& event) {
    if (const auto* it = std::get_if<store::IterationRecord>(&event)) {
      out_ << prefix(f) << progress_line(++f.done, o_.planned, as_result(*it)) << "\n";
    } else if (const auto* end = std::get_if<client::RunEnd>(&event)) {
      out_ << prefix(f)
           << printable(fmt::format("run {} {}{}{}", f.follower.run_id(), end->status,
                                    end->reason.empty() ? "" : ": " + end->reason,
                                    end->dropped_samples > 0
                                        ? fmt::format("; {} samples dropped", end->dropped_samples)
                                        : ""))
           << "\n";
    } else if (const auto* c = std::get_if<client::RunStateEvent>(&event)) {
      std::cerr << prefix(f) << printable(client::run_state_line(f.follower.run_id(), *c)) << "\n";
    } else if (const auto* e = std::get_if<client::RunErrorEvent>(&event)) {
      std::cerr << prefix(f) << printable(fmt::format("agent error {}: {}", e->code, e->message))
                << "\n";
    } else if (const auto* l = std::get_if<client::RunLogEvent>(&event)) {
      std::cerr << prefix(f) << printable("agent: " + l->message) << "\n";
    }
  }

  const WaitOptions& o_;
  std::ostream& out_;
  bool several_;
  std::vector<Followed> followed_;
};

// Compares `run`'s variants with its baseline, writes the table to `out`
// (none when null) and returns the rows that fail the gate. A run that
// cannot be compared (no ok iteration, an unknown --metric) says why on
// stderr and sets `judged` false.
// With `several` runs each line names its run.
std::vector<compare::GateFailure> gate_failures(const store::RunRecord& run, const WaitOptions& o,
                                                std::ostream* out, bool several, bool& judged) {
  try {
    compare::CompareOptions options;
    options.threshold_pct = o.threshold_pct;
    const compare::Table table = compare::compare_variants(run, options);
    if (out) {
      *out << "\n";
      report::print_compare_table(table, *out, {o.all_metrics});
    }
    if (!o.fail_on_regression) return {};
    auto failures = compare::gate_failures(table, o.gate);
    if (several) {
      for (auto& f : failures)
        f.where = fmt::format("{} {}", compare::short_id(run.run_id), f.where);
    }
    return failures;
  } catch (const compare::CompareError& e) {
    std::cerr << printable(fmt::format("run {}: no comparison: {}", run.run_id, e.what())) << "\n";
    judged = false;
    return {};
  }
}

// Fetches every run whole and shows it, then says which did not end ok; the
// exit code (kExitFailed for a run not ok, with or without --fail-on).
int show_results(client::ApiClient& client, const std::vector<QueuedRunRef>& runs,
                 const WaitOptions& o) {
  std::vector<store::RunRecord> records;
  for (const auto& r : runs) records.push_back(client::fetch_run(client, r.run_id));
  bool ok = true, judged = true;
  std::vector<compare::GateFailure> failures;
  for (const auto& run : records) {
    ok = ok && run.status == "ok";
    for (auto& f : gate_failures(run, o, o.json ? nullptr : &std::cout, records.size() > 1, judged))
      failures.push_back(std::move(f));
  }
  if (o.json) std::cout << report::results_json(records).dump(2) << "\n";
  std::cout << std::flush;
  // Under the tables, so the last lines say why the exit code is 1.
  for (const auto& run : records) {
    if (run.status != "ok") std::cerr << printable(report::run_status_note(run)) << "\n";
  }
  if (o.fail_on_regression && !judged) {
    std::cerr << "--fail-on regression: a run had no comparison to judge\n";
    return kExitFailed;
  }
  if (o.fail_on_regression && compare::report_gate(failures, ok, std::cerr)) return kExitFailed;
  return ok ? kExitOk : kExitFailed;
}

}  // namespace

std::vector<QueuedRunRef> queued_runs(const nlohmann::json& answer) {
  return client::reading("queued runs", [&] {
    std::vector<QueuedRunRef> runs;
    for (const auto& r : answer.at("runs")) {
      runs.push_back({r.at("run_id").get<std::string>(), r.at("agent_id").get<std::string>(),
                      r.at("queue_position").get<int>(), r.value("connected", true)});
    }
    return runs;
  });
}

std::string queued_line(const QueuedRunRef& r) {
  const std::string ahead =
      fmt::format("{} run{} ahead", r.queue_position, r.queue_position == 1 ? "" : "s");
  std::string where;
  if (!r.connected) {
    where = fmt::format("{} is not connected{}; the run waits in its queue until it is", r.agent_id,
                        r.queue_position <= 0 ? "" : ", " + ahead);
  } else {
    where = r.queue_position <= 0 ? "next in its queue" : "queued, " + ahead;
  }
  return printable(fmt::format("run {} on {}: {}", r.run_id, r.agent_id, where));
}

int wait_for_runs(client::ApiClient& client, const std::vector<QueuedRunRef>& runs,
                  const WaitOptions& o) {
  client.stop_on_signals();
  try {
    RunsWaiter(client, runs, o).follow();
    return show_results(client, runs, o);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::kInterrupted) throw;
    std::cerr << "stopped waiting; the runs go on on the server (`schedrig queue` lists them, "
                 "`schedrig abort RUN` stops one)\n";
    return kExitInterrupted;
  }
}

}  // namespace schedrig::host
