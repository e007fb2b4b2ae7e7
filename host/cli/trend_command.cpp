// `schedrig trend --agent ID --case C`: a case's metric over an agent's
// runs (or kernels), with verdicts against the point before and change
// points (docs/reports.md "Trend"; host/compare/trend_table.h).
#include <algorithm>
#include <ctime>
#include <iostream>
#include <limits>
#include <regex>

#include <fmt/format.h>

#include "common/cli_error.h"
#include "common/printable.h"
#include "host/cli/commands.h"
#include "host/cli/gate_options.h"
#include "host/cli/read_store.h"
#include "host/cli/server_options.h"
#include "host/client/api_paths.h"
#include "host/client/api_views.h"
#include "host/client/remote_runs.h"
#include "host/compare/trend_table.h"
#include "host/report/compare_json.h"
#include "host/report/format.h"
#include "host/report/text_table.h"
#include "host/store/store.h"

namespace schedrig::host {
namespace {

// At most this many runs are read from a server (newest kept).
constexpr std::size_t kMaxServerRuns = 500;

struct TrendCliOptions {
  std::string agent, case_name, metric, variant, since, db;
  std::string method = "auto";
  std::string disturbed = "exclude";
  double threshold_pct = 0;
  bool by_kernel = false, json = false;
  ServerOptions server;
};

// --since: YYYY-MM-DD (UTC midnight) or YYYY-MM-DDTHH:MM:SSZ, in ns.
long long parse_since(const std::string& text) {
  static const std::regex kShape(R"(\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}Z)?)");
  if (!std::regex_match(text, kShape)) {
    throw CliError(ErrorKind::kUsage,
                   fmt::format("trend: --since '{}': not YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ",
                               printable(text)));
  }
  std::tm tm{};
  int consumed = 0;
  const bool date_only = text.size() == 10;
  const char* format = date_only ? "%4d-%2d-%2d%n" : "%4d-%2d-%2dT%2d:%2d:%2dZ%n";
  const int fields =
      date_only ? std::sscanf(text.c_str(), format, &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &consumed)
                : std::sscanf(text.c_str(), format, &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                              &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &consumed);
  if (fields != (date_only ? 3 : 6) || static_cast<std::size_t>(consumed) != text.size() ||
      tm.tm_mon < 1 || tm.tm_mon > 12 || tm.tm_mday < 1 || tm.tm_mday > 31) {
    throw CliError(ErrorKind::kUsage,
                   fmt::format("trend: --since '{}': not YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ",
                               printable(text)));
  }
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  const std::tm asked = tm;
  // ns since the epoch run out in 2262 (and before 1677): a later date is
  // "after every run", an earlier one "before every run".
  const long long seconds = static_cast<long long>(timegm(&tm));
  if (tm.tm_mday != asked.tm_mday || tm.tm_mon != asked.tm_mon || tm.tm_hour != asked.tm_hour ||
      tm.tm_min != asked.tm_min || tm.tm_sec != asked.tm_sec) {
    throw CliError(ErrorKind::kUsage,
                   fmt::format("trend: --since '{}': no such date or time", printable(text)));
  }
  constexpr long long kMaxSeconds = std::numeric_limits<long long>::max() / 1'000'000'000LL;
  if (seconds >= kMaxSeconds) return std::numeric_limits<long long>::max();
  if (seconds <= -kMaxSeconds) return std::numeric_limits<long long>::min();
  return seconds * 1'000'000'000LL;
}

std::vector<store::RunRecord> server_runs(const TrendCliOptions& o) {
  const auto api = make_api_client(o.server);
  std::vector<std::string> ids;
  for (const auto& e : client::queue_from_json(api->get_json(client::runs_path()))) {
    if (e.agent_id == o.agent && e.dispatched_at_ns != 0) ids.push_back(e.run_id);
  }
  if (ids.size() > kMaxServerRuns) ids.erase(ids.begin(), ids.end() - kMaxServerRuns);
  std::vector<store::RunRecord> out;
  for (const auto& id : ids) out.push_back(client::fetch_run(*api, id));
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.started_at_ns < b.started_at_ns; });
  return out;
}

std::vector<store::RunRecord> agent_runs(const TrendCliOptions& o) {
  std::vector<store::RunRecord> runs =
      use_server(o.server, o.db) ? server_runs(o) : read_store(o.db, [](const store::Store& s) {
        return s.runs("", {.sample_summaries = false, .histograms = false});
      });
  const long long since = o.since.empty() ? 0 : parse_since(o.since);
  std::erase_if(runs, [&](const store::RunRecord& r) {
    return r.agent_id != o.agent || r.started_at_ns < since || r.status == "queued";
  });
  if (runs.empty()) {
    throw CliError(ErrorKind::kUsage,
                   fmt::format("trend: agent '{}' has no runs{}", printable(o.agent),
                               o.since.empty() ? "" : " since " + printable(o.since)));
  }
  return runs;
}

std::string verdict_cell(const compare::TrendPoint& p) {
  if (!p.has_previous) return "-";
  std::string text = analysis::format_change(p.vs_previous.change_pct);
  const std::string_view mark = analysis::mark(p.vs_previous.verdict);
  return mark.empty() ? text : text + " " + std::string(mark);
}

// "lo .. hi", with "*" when it covers less than 95% (fewer than 6 values).
std::string interval_cell(const compare::TrendPoint& p) {
  if (p.values.empty()) return "-";
  return report::format_number(p.ci_lo) + " .. " + report::format_number(p.ci_hi) +
         (p.ci_coverage < 0.95 ? "*" : "");
}

// What the table leaves unsaid: short intervals, iterations left out.
void print_footnotes(const compare::Trend& t) {
  unsigned left_out = 0;
  bool short_interval = false;
  for (const auto& p : t.points) {
    left_out += p.left_out;
    short_interval |= !p.values.empty() && p.ci_coverage < 0.95;
  }
  if (short_interval) {
    std::cout << "* fewer than 6 values: the interval is their range and covers the median "
                 "with less than 95% (e.g. 50% at n=2, 94% at n=5)\n";
  }
  if (left_out > 0) {
    std::cout << fmt::format(
        "{} ok iteration{} left out by the disturbed policy (--disturbed include counts them)\n",
        left_out, left_out == 1 ? "" : "s");
  }
}

void print_text(const compare::Trend& t, bool by_kernel) {
  std::cout << printable(fmt::format("trend of {} {} ({}, {}), {} point{} by {}:", t.case_name,
                                     t.metric, report::dash_if_empty(t.unit),
                                     t.higher_is_better ? "higher is better" : "lower is better",
                                     t.points.size(), t.points.size() == 1 ? "" : "s",
                                     by_kernel ? "kernel" : "run"))
            << "\n";
  using Align = report::TextTable::Align;
  report::TextTable table({{by_kernel ? "KERNEL" : "RUN"},
                           {"STARTED"},
                           {by_kernel ? "RUNS" : "KERNEL"},
                           {"n", Align::kRight},
                           {"MEDIAN", Align::kRight},
                           {"95% CI", Align::kRight},
                           {"VS PREVIOUS"},
                           {""}});
  for (const auto& p : t.points) {
    table.add_row({p.label, report::format_utc(p.started_at_ns),
                   by_kernel ? std::to_string(p.run_ids.size()) : p.kernel,
                   std::to_string(p.values.size()),
                   p.values.empty() ? "-" : report::format_number(p.median), interval_cell(p),
                   verdict_cell(p), p.change_point ? "<- change point" : ""});
  }
  table.print(std::cout);
  print_footnotes(t);
}

nlohmann::json trend_json(const compare::Trend& t, const compare::TrendOptions& o) {
  nlohmann::json points = nlohmann::json::array();
  for (const auto& p : t.points) {
    points.push_back(
        {{"label", p.label},
         {"runs", p.run_ids},
         {"kernel", p.kernel},
         {"started_at_ns", p.started_at_ns},
         {"n", p.values.size()},
         {"median", report::json_number(p.median)},
         {"ci95", {report::json_number(p.ci_lo), report::json_number(p.ci_hi)}},
         {"ci95_coverage", p.values.empty() ? nullptr : report::json_number(p.ci_coverage)},
         {"left_out", p.left_out},
         {"vs_previous", p.has_previous ? report::comparison_json("", p.vs_previous) : nullptr},
         {"change_point", p.change_point}});
  }
  return {{"case", t.case_name},
          {"metric", t.metric},
          {"unit", t.unit},
          {"direction", t.higher_is_better ? "higher_is_better" : "lower_is_better"},
          {"variant", o.variant.empty() ? nlohmann::json(nullptr) : nlohmann::json(o.variant)},
          {"by", o.by_kernel ? "kernel" : "run"},
          {"disturbed", std::string(compare::to_string(o.disturbed))},
          {"points", std::move(points)}};
}

int run_trend(const TrendCliOptions& o) {
  compare::TrendOptions options;
  options.case_name = o.case_name;
  options.metric = o.metric;
  options.variant = o.variant;
  options.by_kernel = o.by_kernel;
  options.disturbed = *compare::parse_disturbed(o.disturbed);  // CLI11 checked the word
  options.method = *analysis::parse_method(o.method);
  options.threshold_pct = o.threshold_pct;
  const std::vector<store::RunRecord> runs = agent_runs(o);
  compare::Trend trend;
  try {
    trend = compare::make_trend(runs, options);
  } catch (const compare::CompareError& e) {
    throw CliError(ErrorKind::kUsage, "trend: " + printable(e.what()));
  }
  if (o.json) {
    std::cout << trend_json(trend, options).dump(2) << "\n";
  } else {
    print_text(trend, o.by_kernel);
  }
  return kExitOk;
}

}  // namespace

void add_trend_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<TrendCliOptions>();
  auto* cmd = app.add_subcommand(
      "trend",
      "one case's metric over an agent's runs in time order (or per kernel with --by-kernel): "
      "each point's median of the kept iterations of one variant with a distribution-free 95% "
      "interval, its verdict against the point before, and the change points (a significant "
      "move the next point confirms)");
  cmd->add_option("--agent", o->agent, "the agent id")->required();
  cmd->add_option("--case", o->case_name, "the case name")->required();
  cmd->add_option("--metric", o->metric, "the metric (default: the case's primary one)");
  cmd->add_option("--variant", o->variant, "the variant (default: each plan's first)");
  cmd->add_option("--since", o->since,
                  "only runs started at or after YYYY-MM-DD[THH:MM:SSZ] (UTC)");
  cmd->add_flag("--by-kernel", o->by_kernel,
                "one point per kernel, its runs pooled, in the order of their first run: a run's "
                "`kernel` label (nightly sets it to the lab file's kernel name), else its "
                "release");
  cmd->add_option("--method", o->method, "as in compare")
      ->check(CLI::IsMember({"auto", "mwu", "welch", "ci-overlap"}));
  add_disturbed_option(*cmd, o->disturbed);
  cmd->add_option("--threshold", o->threshold_pct, "changes below this percentage are not marked")
      ->check(CLI::Range(0.0, 1e6));
  cmd->add_flag("--json", o->json, "JSON: the points with their comparisons");
  cmd->add_option("--db", o->db, "SQLite file (default: the lab's schedrig.db)");
  add_server_options(*cmd, o->server);
  cmd->callback([o, &exit_code] { exit_code = run_trend(*o); });
}

}  // namespace schedrig::host
