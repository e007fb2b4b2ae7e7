#include "host/compare/pooled_latency.h"

#include <algorithm>
#include <limits>
#include <map>
#include <unordered_set>
#include <utility>

#include "host/analysis/pooled_histogram.h"
#include "host/compare/run_data.h"

namespace schedrig::compare {
namespace {

using Pools = std::map<std::string, analysis::PooledHistogram>;  // histogram name -> merge

// Histogram names pooled per case at most (an agent's workloads send 1..3
// an iteration): a hostile run of 100k names costs no more than this.
constexpr std::size_t kMaxHistogramNames = 64;

// Names in the order first seen, with a set beside the list.
struct Names {
  std::vector<std::string> order;
  std::unordered_set<std::string> seen;
  // True when `name` is (or now is) one of the pooled names.
  bool take(const std::string& name) {
    if (seen.count(name) > 0) return true;
    if (order.size() >= kMaxHistogramNames) return false;
    seen.insert(name);
    order.push_back(name);
    return true;
  }
};

// The merges of one spec's kept iterations of `case_name`; the histogram
// names go to `names` in the order first seen.
Pools pool_side(const PoolSpec& spec, const std::string& case_name, DisturbedPolicy policy,
                Names& names) {
  Pools pools;
  for (const store::RunRecord* run : spec.runs) {
    for (const store::IterationRecord& it : run->iterations) {
      if (it.case_name != case_name || it.variant != spec.variant) continue;
      if (it.status != "ok" || !kept(it, policy)) continue;
      for (const store::HistogramRecord& h : it.histograms) {
        if (!names.take(h.name)) continue;
        analysis::PooledHistogram& p = pools[h.name];
        if (p.unit.empty()) p.unit = h.unit;
        if (h.unit != p.unit) continue;  // a merge of one unit only
        analysis::add_histogram(p, h.lower_bounds, h.counts);
      }
    }
  }
  return pools;
}

PooledSide side_of(const PoolSpec& spec, const analysis::PooledHistogram* p) {
  PooledSide s;
  s.label = spec.label;
  s.variant = spec.variant;
  s.run_id = spec.runs.empty() ? "" : spec.runs.front()->run_id;
  for (const store::RunRecord* r : spec.runs) s.run_ids.push_back(r->run_id);
  s.quantiles.fill(std::numeric_limits<double>::quiet_NaN());
  if (p == nullptr) return s;
  s.iterations = p->histograms;
  s.samples = p->samples;
  for (std::size_t i = 0; i < kPooledQuantiles.size(); ++i) {
    s.quantiles[i] = analysis::pooled_quantile(*p, kPooledQuantiles[i]);
  }
  return s;
}

std::vector<const store::RunRecord*> pointers(const std::vector<store::RunRecord>& runs) {
  std::vector<const store::RunRecord*> out;
  for (const auto& r : runs) out.push_back(&r);
  return out;
}

}  // namespace

std::vector<PooledLatency> pool_latency(const std::vector<std::string>& cases,
                                        const std::vector<PoolSpec>& specs, DisturbedPolicy policy,
                                        const std::string& variant) {
  std::vector<PooledLatency> out;
  for (const std::string& case_name : cases) {
    Names names;
    std::vector<Pools> pools;
    for (const PoolSpec& spec : specs) pools.push_back(pool_side(spec, case_name, policy, names));
    for (const std::string& name : names.order) {
      PooledLatency row{case_name, variant, name, "", {}};
      for (std::size_t i = 0; i < specs.size(); ++i) {
        auto found = pools[i].find(name);
        const analysis::PooledHistogram* p = found == pools[i].end() ? nullptr : &found->second;
        if (p != nullptr && row.unit.empty()) row.unit = p->unit;
        row.sides.push_back(side_of(specs[i], p));
      }
      out.push_back(std::move(row));
    }
  }
  return out;
}

std::vector<PooledLatency> pooled_latency(const Table& table,
                                          const std::vector<store::RunRecord>& runs,
                                          const std::vector<store::RunRecord>& against) {
  std::vector<std::string> cases;
  for (const Row& row : table.rows) push_unique(cases, row.case_name);
  if (against.empty()) {
    if (runs.empty()) return {};
    std::vector<PoolSpec> specs{{table.baseline_label, table.baseline_label, pointers(runs)}};
    for (const auto& v : table.columns) specs.push_back({v, v, pointers(runs)});
    return pool_latency(cases, specs, table.disturbed);
  }
  std::vector<std::pair<std::string, std::string>> pairs;  // (case, variant), in row order
  for (const Row& row : table.rows) {
    std::pair<std::string, std::string> p{row.case_name, row.variant};
    if (std::find(pairs.begin(), pairs.end(), p) == pairs.end()) pairs.push_back(std::move(p));
  }
  std::vector<PooledLatency> out;
  for (const auto& [case_name, variant] : pairs) {
    const std::vector<PoolSpec> specs{{table.baseline_label, variant, pointers(against)},
                                      {table.columns.front(), variant, pointers(runs)}};
    for (auto& row : pool_latency({case_name}, specs, table.disturbed, variant)) {
      out.push_back(std::move(row));
    }
  }
  return out;
}

}  // namespace schedrig::compare
