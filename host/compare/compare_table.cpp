#include "host/compare/compare_table.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <unordered_set>
#include <utility>

#include <fmt/format.h>

namespace schedrig::compare {
namespace {

// Values of one (case, variant, metric) as collected, before sorting.
struct Collected {
  std::vector<std::pair<unsigned, double>> points;  // (iteration, value)
};

struct MetricInfo {
  std::string unit, direction;
};

// One case of a run: its metrics in order and the values per variant.
struct CaseData {
  std::vector<std::string> metrics;
  std::map<std::string, MetricInfo> info;
  std::map<std::string, std::map<std::string, Collected>> by_variant;  // variant -> metric
};

struct RunData {
  std::vector<std::string> cases;
  std::vector<std::string> variants;  // plan order, then others as stored
  std::map<std::string, CaseData> by_case;
};

void push_unique(std::vector<std::string>& v, const std::string& s) {
  if (std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
}

// push_unique with a set beside the list, for the 100k-iteration loop.
void push_new(std::vector<std::string>& v, std::unordered_set<std::string>& seen,
              const std::string& s) {
  if (seen.insert(s).second) v.push_back(s);
}

std::vector<std::string> plan_names(const nlohmann::json& plan, const char* list) {
  std::vector<std::string> out;
  if (!plan.is_object() || !plan.contains(list) || !plan[list].is_array()) return out;
  for (const auto& item : plan[list]) {
    if (item.is_object() && item.contains("name") && item["name"].is_string()) {
      push_unique(out, item["name"].get<std::string>());
    }
  }
  return out;
}

RunData collect(const store::RunRecord& run) {
  RunData d;
  d.cases = plan_names(run.plan, "cases");
  d.variants = plan_names(run.plan, "variants");
  std::unordered_set<std::string> cases(d.cases.begin(), d.cases.end());
  std::unordered_set<std::string> variants(d.variants.begin(), d.variants.end());
  for (const auto& it : run.iterations) {
    push_new(d.cases, cases, it.case_name);
    push_new(d.variants, variants, it.variant);
    CaseData& c = d.by_case[it.case_name];
    auto& per_metric = c.by_variant[it.variant];
    for (const auto& m : it.metrics) {
      auto [info, added] = c.info.try_emplace(m.name);
      if (added) c.metrics.push_back(m.name);
      if (info->second.unit.empty()) info->second.unit = m.unit;
      if (info->second.direction.empty()) info->second.direction = m.direction;
      if (it.status != "ok" || !std::isfinite(m.value)) continue;
      per_metric[m.name].points.emplace_back(it.iteration, m.value);
    }
  }
  return d;
}

// The values of (case, variant, metric) as collected; nullptr when the run has none.
const Collected* find_collected(const RunData& d, const std::string& case_name,
                                const std::string& variant, const std::string& metric) {
  auto c = d.by_case.find(case_name);
  if (c == d.by_case.end()) return nullptr;
  auto v = c->second.by_variant.find(variant);
  if (v == c->second.by_variant.end()) return nullptr;
  auto m = v->second.find(metric);
  return m == v->second.end() ? nullptr : &m->second;
}

// `points` into side.iterations and side.values, in iteration order (a
// stable sort keeps repeats of an iteration in the order stored).
void fill_in_iteration_order(std::vector<std::pair<unsigned, double>> points, Side& side) {
  std::stable_sort(points.begin(), points.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [iteration, value] : points) {
    side.iterations.push_back(iteration);
    side.values.push_back(value);
  }
}

Side make_side(const RunData& d, const std::string& run_id, const std::string& case_name,
               const std::string& variant, const std::string& metric) {
  Side side;
  side.run_id = run_id;
  side.variant = variant;
  if (const Collected* found = find_collected(d, case_name, variant, metric))
    fill_in_iteration_order(found->points, side);
  side.analysis = analysis::analyze_series(side.values);
  return side;
}

Cell make_cell(const Row& row, Side side, const Table& table) {
  Cell cell;
  cell.present = !side.values.empty();
  analysis::CompareOptions o;
  o.method = table.method;
  o.threshold_pct = table.threshold_pct;
  o.confidence = table.confidence;
  o.higher_is_better = row.higher_is_better;
  cell.comparison = analysis::compare_samples(row.baseline.values, side.values, o);
  analysis::add_series_notes(cell.comparison, row.baseline.analysis, side.analysis);
  if (row.direction_assumed) {
    cell.comparison.note += cell.comparison.note.empty() ? "" : "; ";
    cell.comparison.note += "direction unset: higher taken as better";
  }
  cell.side = std::move(side);
  return cell;
}

Row make_row(const std::string& case_name, const std::string& metric, const MetricInfo& info) {
  Row row;
  row.case_name = case_name;
  row.metric = metric;
  row.unit = info.unit;
  row.direction_assumed = info.direction.empty();
  row.higher_is_better = info.direction != "lower_is_better";
  return row;
}

std::string plan_name(const store::RunRecord& run) {
  if (run.plan.is_object() && run.plan.contains("name") && run.plan["name"].is_string()) {
    return run.plan["name"].get<std::string>();
  }
  return "";
}

Table table_for(const store::RunRecord& run, const CompareOptions& options) {
  Table t;
  t.run_id = run.run_id;
  t.run_agent = run.hostname.empty() ? run.agent_id : run.hostname;
  t.run_kernel = run.kernel_release;
  t.plan_name = plan_name(run);
  t.method = options.method;
  t.threshold_pct = options.threshold_pct;
  return t;
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) {
    if (!out.empty()) out += ", ";
    out += s;
  }
  return out;
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// "KIND 'x' only in run ID" for every name of `mine` that `other` lacks.
void only_in(std::vector<std::string>& out, const char* kind, const std::vector<std::string>& mine,
             const std::vector<std::string>& other, const std::string& id) {
  for (const auto& name : mine) {
    if (!has(other, name)) out.push_back(fmt::format("{} '{}' only in run {}", kind, name, id));
  }
}

// Cases, then variants, that only one of the two runs has: the reference's first.
void list_unmatched(Table& t, const RunData& a, const std::string& a_id, const RunData& ref,
                    const std::string& ref_id) {
  only_in(t.unmatched, "case", ref.cases, a.cases, ref_id);
  only_in(t.unmatched, "case", a.cases, ref.cases, a_id);
  only_in(t.unmatched, "variant", ref.variants, a.variants, ref_id);
  only_in(t.unmatched, "variant", a.variants, ref.variants, a_id);
}

// Both runs of a comparison across runs, and the one variant to keep ("" = all).
struct CrossRun {
  const RunData& run;
  const RunData& reference;
  const std::string& run_id;
  const std::string& reference_id;
  const std::string& only_variant;
};

// The rows of one case both runs have: per shared variant and per metric
// either run has (the reference's first), skipping rows with no values on
// either side.
void add_case_rows(Table& t, const CrossRun& x, const std::string& case_name) {
  auto rc = x.reference.by_case.find(case_name);
  auto ac = x.run.by_case.find(case_name);
  if (rc == x.reference.by_case.end() || ac == x.run.by_case.end()) return;
  std::vector<std::string> metrics = rc->second.metrics;
  for (const auto& m : ac->second.metrics) push_unique(metrics, m);
  for (const auto& variant : x.reference.variants) {
    if (!has(x.run.variants, variant)) continue;
    if (!x.only_variant.empty() && variant != x.only_variant) continue;
    for (const auto& metric : metrics) {
      auto info =
          rc->second.info.count(metric) ? rc->second.info.at(metric) : ac->second.info.at(metric);
      Row row = make_row(case_name, metric, info);
      row.variant = variant;
      row.baseline = make_side(x.reference, x.reference_id, case_name, variant, metric);
      Side side = make_side(x.run, x.run_id, case_name, variant, metric);
      if (row.baseline.values.empty() && side.values.empty()) continue;
      row.cells.push_back(make_cell(row, std::move(side), t));
      t.rows.push_back(std::move(row));
    }
  }
}

}  // namespace

std::string short_id(const std::string& run_id) { return run_id.substr(0, 8); }

Table compare_variants(const store::RunRecord& run, const CompareOptions& options) {
  const RunData d = collect(run);
  Table t = table_for(run, options);
  std::string baseline = options.baseline_variant;
  if (baseline.empty()) {
    if (d.variants.empty()) {
      throw CompareError(fmt::format("run {} has no variants to compare", short_id(run.run_id)));
    }
    baseline = d.variants.front();
  } else if (std::find(d.variants.begin(), d.variants.end(), baseline) == d.variants.end()) {
    throw CompareError(fmt::format("run {} has no variant '{}' (variants: {})",
                                   short_id(run.run_id), baseline, join(d.variants)));
  }
  t.baseline_label = baseline;
  for (const auto& v : d.variants) {
    if (v != baseline) t.columns.push_back(v);
  }
  for (const auto& case_name : d.cases) {
    auto c = d.by_case.find(case_name);
    if (c == d.by_case.end()) continue;  // in the plan, never run
    for (const auto& metric : c->second.metrics) {
      Row row = make_row(case_name, metric, c->second.info.at(metric));
      row.baseline = make_side(d, run.run_id, case_name, baseline, metric);
      for (const auto& v : t.columns) {
        row.cells.push_back(make_cell(row, make_side(d, run.run_id, case_name, v, metric), t));
      }
      t.rows.push_back(std::move(row));
    }
  }
  return t;
}

Table compare_runs(const store::RunRecord& run, const store::RunRecord& reference,
                   const CompareOptions& options) {
  const RunData a = collect(run), ref = collect(reference);
  Table t = table_for(run, options);
  t.against_run_id = reference.run_id;
  t.against_agent = reference.hostname.empty() ? reference.agent_id : reference.hostname;
  t.against_kernel = reference.kernel_release;
  t.baseline_label = short_id(reference.run_id);
  t.columns = {short_id(run.run_id)};
  t.fingerprint_differences = fingerprint_differences(reference.fingerprint, run.fingerprint);
  if (!options.baseline_variant.empty() && !has(ref.variants, options.baseline_variant)) {
    throw CompareError(fmt::format("run {} has no variant '{}' (variants: {})",
                                   short_id(reference.run_id), options.baseline_variant,
                                   join(ref.variants)));
  }
  list_unmatched(t, a, short_id(run.run_id), ref, short_id(reference.run_id));
  const CrossRun x{a, ref, run.run_id, reference.run_id, options.baseline_variant};
  for (const auto& case_name : ref.cases) {
    if (has(a.cases, case_name)) add_case_rows(t, x, case_name);
  }
  if (t.rows.empty()) {
    throw CompareError(fmt::format("runs {} and {} share no case and variant with results",
                                   short_id(run.run_id), short_id(reference.run_id)));
  }
  return t;
}

std::vector<FingerprintDifference> fingerprint_differences(
    const std::map<std::string, std::string>& reference,
    const std::map<std::string, std::string>& run) {
  std::set<std::string> keys;
  for (const auto& [k, v] : reference) keys.insert(k);
  for (const auto& [k, v] : run) keys.insert(k);
  std::vector<FingerprintDifference> out;
  for (const auto& k : keys) {
    auto a = reference.find(k);
    auto b = run.find(k);
    std::string va = a == reference.end() ? "" : a->second;
    std::string vb = b == run.end() ? "" : b->second;
    if (va != vb) out.push_back({k, std::move(va), std::move(vb)});
  }
  return out;
}

bool has_regression(const Table& table) {
  for (const auto& row : table.rows) {
    for (const auto& cell : row.cells) {
      if (cell.comparison.verdict == analysis::Verdict::kRegression) return true;
    }
  }
  return false;
}

}  // namespace schedrig::compare
