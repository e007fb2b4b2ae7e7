#include "host/report/compare_notes.h"

#include <algorithm>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "host/analysis/cliff.h"

namespace schedrig::report {

using compare::Row;
using compare::Side;
using compare::Table;

namespace {

// One remark of one metric, for one case and variant.
struct Remark {
  std::string metric, text;
};

// Remarks by "CASE / VARIANT" key, the keys in order of first appearance.
class Remarks {
 public:
  void add(const std::string& key, const std::string& metric, const std::string& text) {
    auto [it, added] = by_key_.try_emplace(key);
    if (added) keys_.push_back(key);
    it->second.push_back({metric, text});
  }

  // Each key's remarks: shared ones once and first, then the metric's own.
  void write(std::vector<std::string>& out) const {
    for (const auto& key : keys_) {
      const auto& remarks = by_key_.at(key);
      std::vector<std::string> said;
      for (const auto& r : remarks) {
        if (shared(remarks, r.text) && std::find(said.begin(), said.end(), r.text) == said.end()) {
          said.push_back(r.text);
          out.push_back(fmt::format("{}: {}", key, r.text));
        }
      }
      for (const auto& r : remarks) {
        if (!shared(remarks, r.text))
          out.push_back(fmt::format("{} / {}: {}", key, r.metric, r.text));
      }
    }
  }

 private:
  // True when more than one metric of the key carries `text`.
  static bool shared(const std::vector<Remark>& remarks, const std::string& text) {
    std::vector<std::string> metrics;
    for (const auto& r : remarks) {
      if (r.text == text && std::find(metrics.begin(), metrics.end(), r.metric) == metrics.end())
        metrics.push_back(r.metric);
    }
    return metrics.size() > 1;
  }

  std::vector<std::string> keys_;
  std::map<std::string, std::vector<Remark>> by_key_;
};

bool has_shape(const Side& side) {
  return side.analysis.modes.bimodal || side.analysis.drift.present;
}

void add_row(const Table& t, const Row& row, Remarks& remarks) {
  const bool across = !t.against_run_id.empty();
  const auto key = [&](const std::string& who) {
    return across ? fmt::format("{} / {} / {}", row.case_name, row.variant, who)
                  : fmt::format("{} / {}", row.case_name, who);
  };
  if (has_shape(row.baseline)) {
    remarks.add(key(t.baseline_label), row.metric, analysis::describe(row.baseline.analysis));
  }
  for (std::size_t i = 0; i < row.cells.size(); ++i) {
    const compare::Cell& cell = row.cells[i];
    if (has_shape(cell.side)) {
      remarks.add(key(t.columns[i]), row.metric, analysis::describe(cell.side.analysis));
    }
    const std::string cliff = analysis::describe_cliff(cell.comparison);
    if (!cliff.empty()) remarks.add(key(t.columns[i]), row.metric, cliff);
    for (const auto& part : unshown_remarks(cell.comparison.note)) {
      remarks.add(key(t.columns[i]), row.metric, part);
    }
    if (compare::boot_level(cell)) {
      for (const auto& part : unshown_remarks(cell.by_boot->note)) {
        remarks.add(key(t.columns[i]), row.metric, "by boot: " + part);
      }
    }
  }
}

}  // namespace

std::vector<std::string> unshown_remarks(const std::string& note) {
  static const char* const kShown[] = {"parametric:",    "baseline bimodal", "variant bimodal",
                                       "baseline drift", "variant drift",    "baseline noisy",
                                       "variant noisy"};
  auto shown = [](const std::string& part) {
    for (const char* prefix : kShown) {
      if (part.rfind(prefix, 0) == 0) return true;
    }
    return false;
  };
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= note.size()) {
    std::size_t end = note.find("; ", start);
    if (end == std::string::npos) end = note.size();
    std::string part = note.substr(start, end - start);
    if (!part.empty() && !shown(part)) out.push_back(std::move(part));
    start = end + 2;
  }
  return out;
}

std::vector<std::string> compare_notes(const Table& t,
                                       const std::function<bool(const Row&)>& shown) {
  Remarks remarks;
  for (const auto& row : t.rows) {
    if (shown(row)) add_row(t, row, remarks);
  }
  std::vector<std::string> notes;
  remarks.write(notes);
  for (const auto& u : t.unmatched) notes.push_back(u);
  return notes;
}

}  // namespace schedrig::report
