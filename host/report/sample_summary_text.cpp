#include "host/report/sample_summary_text.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "host/report/format.h"
#include "host/report/text_table.h"

namespace schedrig::report {
namespace {

using Align = TextTable::Align;

// The summary's columns: header and the SampleStatRecord name averaged.
const std::vector<std::pair<const char*, const char*>>& stat_columns() {
  static const std::vector<std::pair<const char*, const char*>> columns = {
      {"IDLE%", "idle_pct"},       {"RUNNABLE", "runnable"},          {"CTXT/S", "ctxt_per_s"},
      {"WAIT%", "wait_share_pct"}, {"NEWIDLE/S", "newidle_lb_per_s"}, {"PSI%", "psi_some_pct"}};
  return columns;
}

// The iterations of one (case, variant), folded.
struct Group {
  std::string case_name, variant;
  bool sampled = false;  // any iteration had samples
  unsigned starved = 0;
  std::map<std::string, std::pair<double, unsigned>> sum_count;  // stat name -> (Σ mean, n)
};

std::vector<Group> groups_of(const store::RunRecord& run) {
  std::vector<Group> groups;
  for (const auto& it : run.iterations) {
    auto g = std::find_if(groups.begin(), groups.end(), [&](const Group& x) {
      return x.case_name == it.case_name && x.variant == it.variant;
    });
    if (g == groups.end()) {
      groups.push_back({it.case_name, it.variant, false, 0, {}});
      g = std::prev(groups.end());
    }
    const store::SampleSummaryRecord& s = it.sample_summary;
    if (s.samples == 0) continue;
    g->sampled = true;
    g->starved += s.starved_intervals;
    for (const auto& stat : s.stats) {
      auto& [sum, n] = g->sum_count[stat.name];
      sum += stat.mean;
      ++n;
    }
  }
  return groups;
}

void print_table(const std::vector<Group>& groups, std::ostream& out) {
  std::vector<TextTable::Column> columns = {{"CASE"}, {"VARIANT"}};
  for (const auto& [header, name] : stat_columns()) columns.push_back({header, Align::kRight});
  columns.push_back({"STARVED", Align::kRight});
  TextTable table(std::move(columns));
  for (const Group& g : groups) {
    std::vector<std::string> row = {g.case_name, g.variant};
    for (const auto& [header, name] : stat_columns()) {
      auto found = g.sum_count.find(name);
      row.push_back(found == g.sum_count.end()
                        ? "-"
                        : format_number(found->second.first / found->second.second));
    }
    row.push_back(g.sampled ? std::to_string(g.starved) : "-");
    table.add_row(std::move(row));
  }
  table.print(out);
}

std::string quiet_line(const store::RunRecord& run) {
  unsigned waited = 0, gave_up = 0;
  double total_s = 0, longest_s = 0;
  for (const auto& it : run.iterations) {
    if (it.quiet_wait_s > 0) ++waited;
    if (it.quiet_gave_up) ++gave_up;
    total_s += it.quiet_wait_s;
    longest_s = std::max(longest_s, it.quiet_wait_s);
  }
  std::string line =
      fmt::format("quiet box: checked before {} of {} iterations", waited, run.iterations.size());
  if (waited > 0) {
    line += fmt::format(", waited {} s on average (longest {} s)", format_number(total_s / waited),
                        format_number(longest_s));
  }
  line +=
      gave_up == 0 ? "; none gave up" : fmt::format("; {} gave up and ran on a busy box", gave_up);
  return line;
}

}  // namespace

void print_sample_summary(const store::RunRecord& run, std::ostream& out) {
  const std::vector<Group> groups = groups_of(run);
  const bool sampled =
      std::any_of(groups.begin(), groups.end(), [](const Group& g) { return g.sampled; });
  const bool quiet_checked = std::any_of(
      run.iterations.begin(), run.iterations.end(),
      [](const store::IterationRecord& it) { return it.quiet_wait_s > 0 || it.quiet_gave_up; });
  if (!sampled && !quiet_checked) return;
  out << '\n';
  if (sampled) {
    out << "sampled, per variant (mean of the iterations' means):\n";
    print_table(groups, out);
  }
  out << quiet_line(run) << '\n';
}

}  // namespace schedrig::report
