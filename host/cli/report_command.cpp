// `schedrig report RUN [--against RUN2] --html F` and `schedrig report
// --nightly DIR`: self-contained HTML pages (docs/reports.md).
#include <fcntl.h>
#include <algorithm>
#include <fstream>
#include <iostream>
#include <system_error>
#include <variant>

#include <fmt/format.h>

#include "common/cli_error.h"
#include "common/printable.h"
#include "common/replace_file.h"
#include "host/cli/commands.h"
#include "host/cli/compare_inputs.h"
#include "host/cli/read_store.h"
#include "host/cli/report_nightly.h"
#include "host/client/run_events.h"
#include "host/report/html/run_report.h"
#include "host/store/store.h"

namespace schedrig::host {
namespace {

struct ReportCliOptions {
  ComparisonCliOptions c;
  double threshold_pct = 0;
  std::string html, nightly;
};

// A run's samples from the server: its events, read until the run's end or
// an empty poll (bounded: a run's sample count is bounded by the store).
std::vector<store::SampleRecord> server_samples(client::ApiClient& api, const std::string& run_id) {
  std::vector<store::SampleRecord> out;
  client::RunFollower follower(api, run_id);
  while (!follower.ended()) {
    const std::vector<client::RunEvent> events = follower.poll(0);
    if (events.empty()) break;
    for (const auto& e : events) {
      if (const auto* s = std::get_if<store::SampleRecord>(&e)) out.push_back(*s);
    }
  }
  return out;
}

std::vector<store::SampleRecord> load_samples(const ReportCliOptions& o, const CompareInputs& in) {
  std::vector<std::string> ids;
  for (const auto* side : {&in.runs, &in.against}) {
    for (const auto& r : *side) ids.push_back(r.run_id);
  }
  std::vector<store::SampleRecord> out;
  if (use_server(o.c.server, o.c.db)) {
    const auto api = make_api_client(o.c.server);
    for (const auto& id : ids) {
      for (auto& s : server_samples(*api, id)) out.push_back(std::move(s));
    }
    return out;
  }
  return read_store(o.c.db, [&](const store::Store& st) {
    for (const auto& id : ids) {
      for (auto& s : st.samples(id)) {
        if (s.run_id == id) out.push_back(std::move(s));
      }
    }
    return out;
  });
}

// This process's command line (/proc/self/cmdline, arguments joined by
// spaces; at most 4 KiB), for the page's foot: how to make it again.
// Secrets never are on it (tokens come from files or the environment).
std::string command_line() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::string raw(4096, '\0');
  in.read(raw.data(), static_cast<std::streamsize>(raw.size()));
  raw.resize(static_cast<std::size_t>(in.gcount()));
  while (!raw.empty() && raw.back() == '\0') raw.pop_back();
  std::replace(raw.begin(), raw.end(), '\0', ' ');
  return raw;
}

// The page to `path` (replaced whole), or to stdout for "-".
void write_html(const std::string& path, const std::string& html) {
  if (path == "-") {
    std::cout << html << std::flush;
    return;
  }
  try {
    replace_file_at(AT_FDCWD, path, html);
  } catch (const std::system_error& e) {
    throw CliError(ErrorKind::kUsage,
                   printable(fmt::format("report: cannot write {} ({})", path, e.what())));
  }
  std::cerr << printable(fmt::format("report: wrote {} ({} KiB)", path, html.size() / 1024))
            << "\n";
}

int run_report(const ReportCliOptions& o) {
  if (!o.nightly.empty()) {
    write_html(o.html.empty() ? o.nightly + "/report.html" : o.html,
               nightly_report_html(o.nightly, o.c, command_line()));
    return kExitOk;
  }
  if (o.c.runs.empty()) throw CliError(ErrorKind::kUsage, "report: name a RUN, or --nightly DIR");
  if (o.html.empty()) throw CliError(ErrorKind::kUsage, "report: --html F is required with RUN");
  report::html::RunReportData d;
  CompareInputs in = load_compare_inputs(o.c, true);
  runs_ok(in.runs);
  runs_ok(in.against);
  try {
    d.table = comparison_table(in, compare_options(o.c, o.threshold_pct));
  } catch (const compare::CompareError& e) {
    throw CliError(ErrorKind::kUsage, "report: " + printable(e.what()));
  }
  d.samples = load_samples(o, in);
  d.runs = std::move(in.runs);
  d.against = std::move(in.against);
  d.command = command_line();
  write_html(o.html, report::html::run_report_html(d));
  return kExitOk;
}

}  // namespace

void add_report_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<ReportCliOptions>();
  auto* cmd = app.add_subcommand(
      "report",
      "write a self-contained HTML report (inline CSS and SVG: it opens offline and prints): "
      "for RUN (or RUN --against RUN2) the verdict table as `compare` prints it, pooled "
      "latency percentiles, per case and metric every iteration in run order with each "
      "variant's distribution, the sampled time series with starved intervals, and the "
      "fingerprint and topology differences; with --nightly DIR, a night's verdicts per "
      "kernel, its iterations per kernel and their trend over the night's boots");
  add_comparison_options(*cmd, o->c);
  cmd->add_option("--threshold", o->threshold_pct,
                  "changes below this percentage are never marked (as in compare)")
      ->check(CLI::Range(0.0, 1e6));
  cmd->add_option("--html", o->html,
                  "the HTML file to write (replaced whole; - for stdout); with --nightly the "
                  "default is DIR/report.html");
  cmd->add_option("--nightly", o->nightly,
                  "a night's OUT directory (schedrig nightly --out): its summary.json and "
                  "night.json; with --server, its runs too")
      ->excludes("run")
      ->excludes("--against");
  cmd->callback([o, &exit_code] { exit_code = run_report(*o); });
}

}  // namespace schedrig::host
