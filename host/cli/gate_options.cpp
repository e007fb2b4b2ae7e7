#include "host/cli/gate_options.h"

namespace schedrig::host {

void add_gate_options(CLI::App& cmd, GateCliOptions& o, bool metric_options) {
  cmd.add_option("--fail-on", o.fail_on,
                 "regression: exit 1, one 'gate:' line per failing case and metric on stderr, "
                 "when a judged row is (R) by at least the threshold, or when a compared run did "
                 "not finish ok; judged: each case's primary metric (or its plan's gate: metric)")
      ->check(CLI::IsMember({"regression"}));
  o.threshold_option =
      cmd.add_option("--threshold", o.threshold_pct,
                     "percent; smaller changes are never marked (I)/(R) and never fail the gate "
                     "(default 0; when given, even as 0, it wins over a plan's "
                     "gate.threshold_pct)")
          ->check(CLI::Range(0.0, 1e6));  // also refuses nan, which NonNegativeNumber lets by
  if (!metric_options) return;
  cmd.add_option("--metric", o.metrics,
                 "with --fail-on: judge this metric of every case instead of the primary one "
                 "(repeatable)")
      ->allow_extra_args(false);
  cmd.add_flag("--all-metrics", o.all_metrics,
               "show every metric in the table (default: the primary metric and p50/p99 "
               "latencies) and let --fail-on judge them all");
}

void add_disturbed_option(CLI::App& cmd, std::string& word) {
  cmd.add_option("--disturbed", word,
                 "iterations the agent marked disturbed (quiet check gave up, other work in the "
                 "window): exclude (default; the header counts them), include, or only")
      ->check(CLI::IsMember({"exclude", "include", "only"}));
}

}  // namespace schedrig::host
