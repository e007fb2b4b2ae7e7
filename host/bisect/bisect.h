// `schedrig bisect-knobs` (docs/bisect-knobs.md): on a box as found, which
// runtime knob flips change a case's judged metric, by how much and how
// surely; with a target run, how much of the gap to it each closes. The
// search is group_search (host/bisect/group_search.h) over the box's
// candidates (candidates.h), every probe a sequential A/B run (probe.h)
// that the caller runs (on this machine through the lab, or a server).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/stats/sequential.h"
#include "host/bisect/candidates.h"
#include "host/store/records.h"
#include "schedrig/v1/plan.pb.h"

namespace schedrig::bisect {

struct BisectOptions {
  v1::Plan plan;          // the plan the case comes from
  std::string case_name;  // the case to judge
  CandidateFilter filter;
  stats::SequentialRule rule;  // per probe: min 5, max --max-iterations pairs
  int group_size = 0;          // 0: all candidates in one first group
  // --target RUN[:VARIANT]: the judged metric's median there, and its name.
  std::optional<double> target_level;
  std::string target_name;
};

// Runs one probe plan to its end and returns its stored run; `what` names
// the flipped units for progress lines. Throws to stop the search (the
// error reaches bisect_knobs' caller).
using RunProbe = std::function<store::RunRecord(const v1::Plan& plan, const std::string& what)>;

struct ProbeRecord {
  std::string run_id;
  std::vector<std::string> units;  // the flipped candidates' names
  stats::SequentialLook look;
  int disturbed_pairs = 0;  // of look.pairs, those with a disturbed side (ProbePairs)
};

struct KnobFinding {
  std::vector<std::string> units;  // one name, or the members of an interaction
  bool interaction = false;
  stats::SequentialLook look, confirmation;
  std::optional<double> closes_gap_pct;  // with a target: change / gap to it, %
};

struct BisectResult {
  std::string case_name, metric, unit, direction;
  double as_found_level = 0;  // median of every probe's as-found iterations
  std::optional<double> target_level;
  std::string target_name;
  std::vector<KnobFinding> findings;   // ranked by |change|, largest first
  std::vector<std::string> no_effect;  // candidates tried without effect
  std::vector<Skipped> skipped;
  std::vector<std::string> notes;
  std::vector<ProbeRecord> probes;
  int pairs = 0;  // iterations per side over all probes
};

// The search. Throws std::invalid_argument for a case the plan lacks or a
// filter naming nothing, and whatever `run` throws.
BisectResult bisect_knobs(const BoxKnobs& box, const BisectOptions& options, const RunProbe& run,
                          const std::function<void(const std::string&)>& progress);

// The report for people: findings with change % (I)/(R) and the 95% repeated
// interval, confirmation, gap closed; no effect; skipped with reasons; the
// probes spent.
std::string bisect_text(const BisectResult& r);

// The same as JSON (docs/bisect-knobs.md "Output").
nlohmann::json bisect_json(const BisectResult& r);

// The median of `metric` ("" = each iteration's first) over the ok
// iterations of `case_name` and `variant` ("" = the run's first variant)
// in `run`, the disturbed ones left out as `compare` leaves them out; when
// every one was disturbed, over them all and `*disturbed` (when given) set.
// Throws std::invalid_argument when there are none.
double run_level(const store::RunRecord& run, const std::string& case_name,
                 const std::string& variant, const std::string& metric, bool* disturbed = nullptr);

}  // namespace schedrig::bisect
