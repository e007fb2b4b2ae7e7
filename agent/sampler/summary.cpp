// summarize(): means and p95 of an iteration's samples (sampler.h).
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "agent/sampler/sampler.h"

namespace schedrig::sampler {
namespace {

// One summarised field: how to get it from a sample (empty = absent).
struct Field {
  const char* name;
  const char* unit;
  std::function<std::optional<double>(const DerivedSample&)> get;
};

const std::vector<Field>& fields() {
  static const std::vector<Field> f = {
      {"idle_pct", "%", [](const DerivedSample& s) { return std::optional(s.idle_pct); }},
      {"ctxt_per_s", "/s", [](const DerivedSample& s) { return std::optional(s.ctxt_per_s); }},
      {"intr_per_s", "/s", [](const DerivedSample& s) { return std::optional(s.intr_per_s); }},
      {"forks_per_s", "/s", [](const DerivedSample& s) { return std::optional(s.forks_per_s); }},
      {"runnable", "tasks",
       [](const DerivedSample& s) { return std::optional<double>(s.runnable); }},
      {"blocked", "tasks", [](const DerivedSample& s) { return std::optional<double>(s.blocked); }},
      {"wait_share_pct", "%", [](const DerivedSample& s) { return s.wait_share_pct; }},
      {"newidle_lb_per_s", "/s", [](const DerivedSample& s) { return s.newidle_lb_per_s; }},
      {"newidle_failed_pct", "%", [](const DerivedSample& s) { return s.newidle_failed_pct; }},
      {"run_delay_ms_per_s", "ms/s", [](const DerivedSample& s) { return s.run_delay_ms_per_s; }},
      {"psi_some_pct", "%", [](const DerivedSample& s) { return s.psi_some_pct; }},
      {"numa_pages_migrated_per_s", "/s",
       [](const DerivedSample& s) { return s.numa_pages_migrated_per_s; }},
      {"numa_miss_per_s", "/s", [](const DerivedSample& s) { return s.numa_miss_per_s; }},
      {"load1", "tasks", [](const DerivedSample& s) { return std::optional(s.load1); }},
  };
  return f;
}

// Nearest-rank p95 of non-empty `v` (sorted in place).
SampleSummary::Stat stat_of(std::string name, std::string unit, std::vector<double>& v) {
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (double x : v) sum += x;
  const auto rank = static_cast<std::size_t>(std::ceil(0.95 * static_cast<double>(v.size())));
  return {std::move(name), std::move(unit), sum / static_cast<double>(v.size()),
          v[rank > 0 ? rank - 1 : 0]};
}

void add_node_stats(const std::vector<DerivedSample>& samples, SampleSummary& out) {
  std::map<int, std::vector<double>> nodes;
  for (const auto& s : samples) {
    for (const auto& n : s.busy_per_node) nodes[n.node].push_back(n.busy_pct);
  }
  for (auto& [node, v] : nodes) {
    out.stats.push_back(stat_of("busy_pct_node" + std::to_string(node), "%", v));
  }
}

}  // namespace

SampleSummary summarize(const std::vector<DerivedSample>& samples) {
  SampleSummary out;
  out.samples = static_cast<std::uint32_t>(samples.size());
  for (const auto& s : samples) out.starved_intervals += s.starved ? 1 : 0;
  for (const auto& f : fields()) {
    std::vector<double> v;
    for (const auto& s : samples) {
      if (auto x = f.get(s)) v.push_back(*x);
    }
    if (!v.empty()) out.stats.push_back(stat_of(f.name, f.unit, v));
    if (std::string_view(f.name) == "idle_pct") add_node_stats(samples, out);
  }
  return out;
}

}  // namespace schedrig::sampler
