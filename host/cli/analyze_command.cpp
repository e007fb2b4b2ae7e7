// `schedrig analyze FILE.csv`: the statistics of `compare` on raw numbers
// (CSV header variant,iteration,value; variant `baseline` is the reference).
#include <filesystem>
#include <iostream>

#include "common/cli_error.h"
#include "common/printable.h"
#include "host/cli/commands.h"
#include "host/cli/gate_options.h"
#include "host/compare/analyze_series.h"
#include "host/compare/series_csv.h"
#include "host/report/analyze_report.h"

namespace schedrig::host {
namespace {

struct AnalyzeCliOptions {
  std::string file;
  std::string method = "auto";
  GateCliOptions gate;
  bool lower_is_better = false;
  bool json = false;
};

// The gate over the file's one metric: every variant against the baseline.
std::vector<compare::GateFailure> gate_failures(const compare::AnalyzeReport& report,
                                                const AnalyzeCliOptions& o) {
  std::vector<compare::GateFailure> out;
  const std::string file = std::filesystem::path(o.file).filename().string();
  for (std::size_t i = 0; i < report.comparisons.size(); ++i) {
    const analysis::Comparison& c = report.comparisons[i];
    if (!compare::fails_gate(c, o.gate.threshold_pct)) continue;
    out.push_back({file + "/" + report.series[i + 1].name, "value", c.change_pct, c.verdict,
                   o.gate.threshold_pct, compare::insufficient_note(c)});
  }
  return out;
}

int run_analyze(const AnalyzeCliOptions& o) {
  compare::AnalyzeOptions options;
  options.lower_is_better = o.lower_is_better;
  options.method = *analysis::parse_method(o.method);  // CLI11 checked the word
  options.threshold_pct = o.gate.threshold_pct;
  compare::AnalyzeReport report;
  try {
    report = compare::analyze_series_set(compare::read_series_csv(o.file), options, o.file);
  } catch (const compare::CsvError& e) {
    throw CliError(ErrorKind::kUsage, printable(e.what()));  // text from the file
  }
  if (o.json) {
    std::cout << report::analyze_json(report).dump(2) << "\n";
  } else {
    report::print_analyze_text(report, std::cout);
  }
  std::cout << std::flush;
  if (!o.gate.enabled()) return kExitOk;
  return compare::report_gate(gate_failures(report, o), true, std::cerr) ? kExitFailed : kExitOk;
}

}  // namespace

void add_analyze_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<AnalyzeCliOptions>();
  auto* cmd = app.add_subcommand(
      "analyze",
      "analyze raw per-iteration numbers from a CSV with the header variant,iteration,value: per "
      "variant n, median, mean, min, max, CoV, modes, flips and drift; each variant against "
      "the variant named 'baseline' with a 95% CI, p-value and verdict");
  cmd->add_option("file", o->file, "CSV file")->required();
  cmd->add_flag("--lower-is-better", o->lower_is_better,
                "smaller values are better (latency); default: higher is better");
  cmd->add_option("--method", o->method, "auto, mwu, welch or ci-overlap (as for compare)")
      ->check(CLI::IsMember({"auto", "mwu", "welch", "ci-overlap"}));
  add_gate_options(*cmd, o->gate, false);
  cmd->add_flag("--json", o->json, "JSON (shape in docs/statistics.md)");
  cmd->callback([o, &exit_code] { exit_code = run_analyze(*o); });
}

}  // namespace schedrig::host
