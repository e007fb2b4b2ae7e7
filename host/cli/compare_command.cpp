// `schedrig compare RUN...`: every variant of a run against its baseline, or
// runs against other runs (--against, repeatable; each side's runs pooled),
// with verdicts (docs/architecture.md "Statistics"; docs/statistics.md).
#include <iostream>

#include <fmt/format.h>

#include "common/cli_error.h"
#include "common/printable.h"
#include "host/cli/commands.h"
#include "host/cli/compare_inputs.h"
#include "host/cli/gate_options.h"
#include "host/cli/server_options.h"
#include "host/compare/compare_table.h"
#include "host/compare/gate.h"
#include "host/report/compare_json.h"
#include "host/report/compare_text.h"

namespace schedrig::host {
namespace {

struct CompareCliOptions {
  ComparisonCliOptions c;
  GateCliOptions gate;
  bool json = false, csv = false;
};

void print(const CompareCliOptions& o, const compare::Table& table) {
  if (o.json) {
    std::cout << report::compare_json(table).dump(2) << "\n";
  } else if (o.csv) {
    report::print_compare_csv(table, std::cout);
  } else {
    report::print_compare_table(table, std::cout, {o.gate.all_metrics});
  }
  std::cout << std::flush;
}

int run_compare(const CompareCliOptions& o) {
  CompareInputs in;
  try {
    in = load_compare_inputs(o.c);
  } catch (const CliError& e) {
    if (e.kind() != ErrorKind::kUsage) throw;
    throw CliError(ErrorKind::kUsage, std::string("compare: ") + e.what());
  }
  const bool ok = runs_ok(in.runs) && runs_ok(in.against);
  compare::Table table;
  std::vector<compare::GateFailure> failures;
  try {
    const compare::CompareOptions options = compare_options(o.c, o.gate.threshold_pct);
    table = comparison_table(in, options);
    if (o.gate.enabled()) failures = compare::gate_failures(table, o.gate.gate());
  } catch (const compare::CompareError& e) {
    if (!ok && o.gate.enabled()) return compare::report_gate({}, ok, std::cerr) ? kExitFailed : 0;
    throw CliError(ErrorKind::kUsage, printable(e.what()));  // names from the store
  }
  print(o, table);
  if (!o.gate.enabled()) return kExitOk;
  return compare::report_gate(failures, ok, std::cerr) ? kExitFailed : kExitOk;
}

}  // namespace

void add_compare_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<CompareCliOptions>();
  auto* cmd = app.add_subcommand(
      "compare",
      "compare a run's variants with its baseline variant, per case and metric: change of "
      "medians, 95% CI, p-value and (I)/(R) verdicts; modes, flips, drift and cliffs in words. "
      "With --against RUN2, the same cases and variants of RUN2 are the reference (kernel A vs "
      "B): cases whose workload, parameters, placement, cpulist or PU count differ are refused "
      "(exit 2) unless --force, the fingerprint and topology fields that differ are listed, and "
      "several runs a side (RUN RUN3 --against RUN2 --against RUN4) are pooled, with the boots "
      "behind each side");
  add_comparison_options(*cmd, o->c);
  cmd->get_option("run")->required();
  add_gate_options(*cmd, o->gate, true);
  auto* json = cmd->add_flag("--json", o->json, "JSON: rows with both sides' statistics");
  cmd->add_flag("--csv", o->csv, "CSV, one line per case, metric and variant")->excludes(json);
  cmd->callback([o, &exit_code] { exit_code = run_compare(*o); });
}

}  // namespace schedrig::host
