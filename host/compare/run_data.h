// The values a comparison reads from one side's runs (compare_table.cpp's
// input): cases, variants and metrics in plan order, and per (case, variant,
// metric) the ok iterations with a finite value that the --disturbed policy
// keeps, pooled over the side's runs (docs/statistics.md "What is compared").
#pragma once

#include <map>
#include <string>
#include <vector>

#include "host/compare/compare_table.h"
#include "host/store/records.h"

namespace schedrig::compare {

// One value: which run of the side (its index), its iteration, its boot.
struct Point {
  std::size_t run = 0;
  unsigned iteration = 0;
  double value = 0;
  const std::string* boot = nullptr;  // the run's boot_id; outlives the RunData
};

struct MetricInfo {
  std::string unit, direction;
};

// One case over the side's runs: its metrics in the order first seen and
// the values per variant and metric.
struct CaseData {
  std::vector<std::string> metrics;
  std::map<std::string, MetricInfo> info;
  std::map<std::string, std::map<std::string, std::vector<Point>>> by_variant;
};

struct RunData {
  std::vector<std::string> cases;     // plan order (the first run's first), then as stored
  std::vector<std::string> variants;  // likewise
  std::map<std::string, CaseData> by_case;
};

// Collects `runs` (one side; not empty, each outliving the result) under
// `policy`, appending one ComparedRun per run to `compared` (reference set
// on each).
RunData collect(const std::vector<const store::RunRecord*>& runs, DisturbedPolicy policy,
                bool reference, std::vector<ComparedRun>& compared);

// The side of (case, variant, metric): its values run by run, each run's in
// iteration order (stable: repeats of an iteration stay as stored), and
// their analysis. Empty when the side has none.
Side make_side(const RunData& d, const std::string& run_id, const std::string& case_name,
               const std::string& variant, const std::string& metric);

// The names under plan[list] ("cases", "variants"), in order, once each.
std::vector<std::string> plan_names(const nlohmann::json& plan, const char* list);

// Whether `policy` keeps an ok iteration (by its disturbed mark).
bool kept(const store::IterationRecord& it, DisturbedPolicy policy);

// Appends `s` unless `v` holds it.
void push_unique(std::vector<std::string>& v, const std::string& s);

}  // namespace schedrig::compare
