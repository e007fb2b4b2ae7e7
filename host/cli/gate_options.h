// The gate's command-line options, the same in compare, analyze, lab and
// run --wait (docs/architecture.md "Command lines"; host/compare/gate.h):
// --fail-on regression, --threshold PCT (changes below it are never marked
// and never fail the gate), and for tables of stored runs --metric NAME
// (repeatable) and --all-metrics (the gate judges, and the table shows,
// every metric).
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "host/compare/gate.h"

namespace schedrig::host {

struct GateCliOptions {
  std::string fail_on;  // "" or "regression"
  double threshold_pct = 0;
  const CLI::Option* threshold_option = nullptr;  // set by add_gate_options
  std::vector<std::string> metrics;
  bool all_metrics = false;

  bool enabled() const { return !fail_on.empty(); }
  // --threshold was given (then it wins over a plan's gate, even at 0).
  bool threshold_given() const { return threshold_option && threshold_option->count() > 0; }
  compare::GateOptions gate() const {
    return {metrics, all_metrics, threshold_pct, threshold_given()};
  }
};

// Adds --fail-on and --threshold to `cmd`, and with `metric_options`
// --metric and --all-metrics (analyze has one metric a file, so none).
void add_gate_options(CLI::App& cmd, GateCliOptions& o, bool metric_options);

// Adds --disturbed exclude|include|only (default exclude) into `word`.
void add_disturbed_option(CLI::App& cmd, std::string& word);

}  // namespace schedrig::host
