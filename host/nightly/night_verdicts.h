// A night's verdicts (docs/nightly.md "Verdicts"): per agent and plan, each
// kernel's runs against the baseline kernel's, pooled, with the boot as the
// unit where each side has at least 2 boots (compare::compare_runs), judged
// by the plan's gates or the lab file's; and per agent the selftest, which
// must find its antagonist a regression in every boot, else the detector
// failed and no verdict of the night stands.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/nightly/lab_file.h"
#include "host/store/records.h"

namespace schedrig::nightly {

// The runs of one kernel (or of the baseline) for one agent and plan.
struct KernelRuns {
  std::string kernel;
  std::vector<store::RunRecord> runs;  // slot order
};

// What the night ran, by agent, then plan name.
struct NightRuns {
  std::map<std::string, std::map<std::string, std::vector<KernelRuns>>> plans;
  std::map<std::string, std::map<std::string, KernelRuns>> baselines;  // agent -> plan -> baseline
  std::map<std::string, std::vector<store::RunRecord>> selftests;      // agent -> one run a boot
};

// One (agent, plan, case, variant, metric, kernel) against the baseline.
struct KernelVerdict {
  std::string agent, plan, case_name, variant, metric, unit, kernel, baseline;
  double change_pct = 0;
  std::string mark;   // "(R)", "(I)", "" (no significant change), "?" (not judged)
  std::string level;  // "boot" (2+ boots a side) or "iteration"
  std::size_t kernel_boots = 0, baseline_boots = 0;
  bool gated = false;  // a row the gate judges
  bool gate_failed = false;
  std::string note;
};

struct SelftestVerdict {
  std::string agent;
  unsigned boots = 0, regressed = 0;  // selftest runs, and those that found the antagonist (R)
  std::vector<std::string> notes;     // per boot that did not
  bool ok() const { return boots > 0 && regressed == boots; }
};

struct NightVerdicts {
  std::vector<KernelVerdict> rows;
  std::vector<SelftestVerdict> selftests;  // empty without a selftest
  std::vector<std::string> problems;  // runs that did not end ok, pairs that cannot be compared
  std::vector<std::string> notes;     // which baseline each agent and plan used, and why
  bool regression = false;            // a gated row failed
  bool detector_failed = false;       // a selftest did not find its regression
};

// Judges `runs` with `lab`'s gates. Never throws for the data: a pair that
// cannot be compared is a problem and fails its gate.
NightVerdicts judge_night(const LabFile& lab, const NightRuns& runs);

// The console summary: a table per agent (PLAN CASE VARIANT METRIC KERNEL vs
// BASELINE: CHANGE VERDICT LEVEL BOOTS GATE), the selftest per agent, the
// problems, and what the exit code says. Remote strings escaped; with a
// failed detector every row says "detector failed".
std::string summary_text(const std::string& night, const LabFile& lab, const NightVerdicts& v,
                         const std::vector<std::string>& infrastructure);

nlohmann::json summary_json(const std::string& night, const LabFile& lab, const NightVerdicts& v,
                            const std::vector<std::string>& infrastructure, int exit_code);

}  // namespace schedrig::nightly
