#include "host/compare/compare_table.h"

#include <algorithm>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "host/compare/comparable.h"
#include "host/compare/run_data.h"

namespace schedrig::compare {
namespace {

void append_note(analysis::Comparison& c, const std::string& note) {
  c.note += c.note.empty() ? "" : "; ";
  c.note += note;
}

// Across runs, an (I)/(R) from fewer than two boots a side says that the
// boot-to-boot variance, real on every kernel A/B, was not measured.
void add_boot_note(analysis::Comparison& c, std::size_t reference_boots, std::size_t run_boots) {
  if (c.verdict != analysis::Verdict::kImprovement && c.verdict != analysis::Verdict::kRegression)
    return;
  if (reference_boots >= 2 && run_boots >= 2) return;
  append_note(c, reference_boots <= 1 && run_boots <= 1
                     ? std::string("1 boot per side: boot-to-boot variance not measured")
                     : fmt::format("{} vs {} boots: boot-to-boot variance not measured",
                                   reference_boots, run_boots));
}

Cell make_cell(const Row& row, Side side, const Table& table, bool across) {
  Cell cell;
  cell.present = !side.values.empty();
  analysis::CompareOptions o;
  o.method = table.method;
  o.threshold_pct = table.threshold_pct;
  o.confidence = table.confidence;
  o.higher_is_better = row.higher_is_better;
  cell.comparison = analysis::compare_samples(row.baseline.values, side.values, o);
  analysis::add_series_notes(cell.comparison, row.baseline.analysis, side.analysis);
  if (row.direction_assumed)
    append_note(cell.comparison, "direction unset: higher taken as better");
  if (across) {
    add_boot_note(cell.comparison, boot_count(row.baseline), boot_count(side));
    cell.by_boot = analysis::compare_boots(values_by_boot(row.baseline), values_by_boot(side), o);
  }
  cell.side = std::move(side);
  return cell;
}

Row make_row(const std::string& case_name, const std::string& metric, const MetricInfo& info,
             bool primary) {
  Row row;
  row.case_name = case_name;
  row.metric = metric;
  row.unit = info.unit;
  row.direction_assumed = info.direction.empty();
  row.higher_is_better = info.direction != "lower_is_better";
  row.primary = primary;
  return row;
}

std::string plan_name(const store::RunRecord& run) {
  if (run.plan.is_object() && run.plan.contains("name") && run.plan["name"].is_string()) {
    return run.plan["name"].get<std::string>();
  }
  return "";
}

// The plan's `gate:` per case name (common/plan/plan_json writes it).
void read_gates(const nlohmann::json& plan, std::map<std::string, CaseGate>& gates) {
  if (!plan.is_object() || !plan.contains("cases") || !plan["cases"].is_array()) return;
  for (const auto& c : plan["cases"]) {
    if (!c.is_object() || !c.contains("gate") || !c["gate"].is_object()) continue;
    const auto& g = c["gate"];
    CaseGate gate;
    if (g.contains("metric") && g["metric"].is_string()) gate.metric = g["metric"];
    if (g.contains("threshold_pct") && g["threshold_pct"].is_number())
      gate.threshold_pct = g["threshold_pct"];
    gates.try_emplace(c.value("name", ""), gate);
  }
}

Table table_for(const store::RunRecord& run, const CompareOptions& options) {
  Table t;
  t.run_id = run.run_id;
  t.run_agent = run.hostname.empty() ? run.agent_id : run.hostname;
  t.run_kernel = run.kernel_release;
  t.plan_name = plan_name(run);
  t.method = options.method;
  t.threshold_pct = options.threshold_pct;
  t.disturbed = options.disturbed;
  read_gates(run.plan, t.gates);
  return t;
}

std::string join(const std::vector<std::string>& items, const char* sep = ", ") {
  return fmt::format("{}", fmt::join(items, sep));
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

// Cases, then variants, that only one of the two sides has: the reference's first.
void list_unmatched(Table& t, const RunData& a, const std::string& a_id, const RunData& ref,
                    const std::string& ref_id) {
  only_in(t.unmatched, "case", ref.cases, a.cases, ref_id);
  only_in(t.unmatched, "case", a.cases, ref.cases, a_id);
  only_in(t.unmatched, "variant", ref.variants, a.variants, ref_id);
  only_in(t.unmatched, "variant", a.variants, ref.variants, a_id);
}

// Both sides of a comparison across runs, and the one variant to keep ("" = all).
struct CrossRun {
  const RunData& run;
  const RunData& reference;
  const std::string& run_id;
  const std::string& reference_id;
  const std::string& only_variant;
};

// The rows of one case both sides have: per shared variant and per metric
// either side has (the reference's first), skipping rows with no values on
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
      Row row = make_row(case_name, metric, info, metric == metrics.front());
      row.variant = variant;
      row.baseline = make_side(x.reference, x.reference_id, case_name, variant, metric);
      Side side = make_side(x.run, x.run_id, case_name, variant, metric);
      if (row.baseline.values.empty() && side.values.empty()) continue;
      row.cells.push_back(make_cell(row, std::move(side), t, true));
      t.rows.push_back(std::move(row));
    }
  }
}

// A side's label: the first run's short id, "+N" for N more pooled runs.
std::string side_label(const std::vector<store::RunRecord>& runs) {
  const std::string id = short_id(runs.front().run_id);
  return runs.size() == 1 ? id : fmt::format("{}+{}", id, runs.size() - 1);
}

std::vector<const store::RunRecord*> pointers(const std::vector<store::RunRecord>& runs) {
  std::vector<const store::RunRecord*> out;
  for (const auto& r : runs) out.push_back(&r);
  return out;
}

std::size_t distinct_boots(const std::vector<store::RunRecord>& runs) {
  std::set<std::string> boots;
  for (const auto& r : runs) {
    if (!r.boot_id.empty()) boots.insert(r.boot_id);
  }
  return boots.size();
}

// Every run against the first reference: the topology fields that differ,
// and the shared cases whose definitions differ (refused unless --force,
// then listed in t.forced).
void check_comparable(Table& t, const std::vector<store::RunRecord>& runs,
                      const std::vector<store::RunRecord>& references, const RunData& a,
                      const RunData& ref, bool force) {
  const store::RunRecord& first = references.front();
  const bool many = runs.size() + references.size() > 2;
  std::vector<std::string> refusals;
  auto check = [&](const store::RunRecord& run) {
    for (auto d : topology_differences(first, run)) {
      if (many) d.field += fmt::format(" (run {})", short_id(run.run_id));
      t.topology_differences.push_back(std::move(d));
    }
    for (const auto& name : ref.cases) {
      if (!has(a.cases, name)) continue;
      const auto diffs = case_differences(first, run, name);
      if (diffs.empty()) continue;
      refusals.push_back(fmt::format("case '{}' ({} -> {}): {}", name, short_id(first.run_id),
                                     short_id(run.run_id), join(diffs)));
    }
  };
  for (std::size_t i = 1; i < references.size(); ++i) check(references[i]);
  for (const auto& run : runs) check(run);
  if (refusals.empty()) return;
  if (!force) {
    throw CompareError(
        fmt::format("cases differ between the runs, so their numbers do not "
                    "compare (--force pairs them anyway): {}",
                    join(refusals, "; ")));
  }
  t.forced = std::move(refusals);
}

}  // namespace

std::string_view to_string(DisturbedPolicy p) {
  switch (p) {
    case DisturbedPolicy::kInclude:
      return "include";
    case DisturbedPolicy::kOnly:
      return "only";
    case DisturbedPolicy::kExclude:
      break;
  }
  return "exclude";
}

std::optional<DisturbedPolicy> parse_disturbed(std::string_view word) {
  for (auto p : {DisturbedPolicy::kExclude, DisturbedPolicy::kInclude, DisturbedPolicy::kOnly}) {
    if (to_string(p) == word) return p;
  }
  return std::nullopt;
}

std::size_t boot_count(const Side& side) {
  std::set<std::string> boots;
  for (const auto& b : side.boots) {
    if (!b.empty()) boots.insert(b);
  }
  return boots.size();
}

std::string short_id(const std::string& run_id) { return run_id.substr(0, 8); }

bool boot_level(const Cell& cell) {
  return cell.by_boot && cell.by_boot->baseline_boots >= analysis::kMinBootsPerSide &&
         cell.by_boot->variant_boots >= analysis::kMinBootsPerSide;
}

std::vector<std::vector<double>> values_by_boot(const Side& side) {
  std::vector<std::string> order;
  std::map<std::string, std::vector<double>> by;
  for (std::size_t i = 0; i < side.values.size() && i < side.boots.size(); ++i) {
    if (side.boots[i].empty()) continue;
    push_unique(order, side.boots[i]);
    by[side.boots[i]].push_back(side.values[i]);
  }
  std::vector<std::vector<double>> out;
  for (const auto& b : order) out.push_back(std::move(by[b]));
  return out;
}

Table compare_variants(const store::RunRecord& run, const CompareOptions& options) {
  Table t = table_for(run, options);
  const RunData d = collect({&run}, options.disturbed, false, t.runs);
  std::string baseline = options.baseline_variant;
  if (baseline.empty()) {
    if (d.variants.empty()) {
      throw CompareError(fmt::format("run {} has no variants to compare", short_id(run.run_id)));
    }
    baseline = d.variants.front();
  } else if (!has(d.variants, baseline)) {
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
      Row row =
          make_row(case_name, metric, c->second.info.at(metric), metric == c->second.metrics[0]);
      row.baseline = make_side(d, run.run_id, case_name, baseline, metric);
      for (const auto& v : t.columns) {
        row.cells.push_back(
            make_cell(row, make_side(d, run.run_id, case_name, v, metric), t, false));
      }
      t.rows.push_back(std::move(row));
    }
  }
  return t;
}

Table compare_runs(const std::vector<store::RunRecord>& runs,
                   const std::vector<store::RunRecord>& references, const CompareOptions& options) {
  if (runs.empty() || references.empty()) {
    throw CompareError("compare_runs needs at least one run a side");
  }
  const store::RunRecord& run = runs.front();
  const store::RunRecord& reference = references.front();
  Table t = table_for(run, options);
  read_gates(reference.plan, t.gates);  // cases RUN's plan gives no gate
  const RunData a = collect(pointers(runs), options.disturbed, false, t.runs);
  const RunData ref = collect(pointers(references), options.disturbed, true, t.runs);
  t.against_run_id = reference.run_id;
  t.against_agent = reference.hostname.empty() ? reference.agent_id : reference.hostname;
  t.against_kernel = reference.kernel_release;
  t.baseline_label = side_label(references);
  t.columns = {side_label(runs)};
  t.run_boots = distinct_boots(runs);
  t.reference_boots = distinct_boots(references);
  t.fingerprint_differences = fingerprint_differences(reference.fingerprint, run.fingerprint);
  if (!options.baseline_variant.empty() && !has(ref.variants, options.baseline_variant)) {
    throw CompareError(fmt::format("run {} has no variant '{}' (variants: {})",
                                   short_id(reference.run_id), options.baseline_variant,
                                   join(ref.variants)));
  }
  check_comparable(t, runs, references, a, ref, options.force);
  list_unmatched(t, a, t.columns.front(), ref, t.baseline_label);
  const CrossRun x{a, ref, run.run_id, reference.run_id, options.baseline_variant};
  for (const auto& case_name : ref.cases) {
    if (has(a.cases, case_name)) add_case_rows(t, x, case_name);
  }
  if (t.rows.empty()) {
    throw CompareError(fmt::format("runs {} and {} share no case and variant with results",
                                   t.columns.front(), t.baseline_label));
  }
  return t;
}

Table compare_runs(const store::RunRecord& run, const store::RunRecord& reference,
                   const CompareOptions& options) {
  return compare_runs(std::vector<store::RunRecord>{run}, std::vector<store::RunRecord>{reference},
                      options);
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
