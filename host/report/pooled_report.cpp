#include "host/report/pooled_report.h"

#include <array>
#include <cmath>

#include <fmt/format.h>

#include "common/number_format.h"
#include "host/report/compare_json.h"
#include "host/report/text_table.h"

namespace schedrig::report {
namespace {

// "p50", "p90", "p99", "p99_9" (JSON keys) for compare::kPooledQuantiles.
constexpr std::array<const char*, 4> kJsonKeys = {"p50", "p90", "p99", "p99_9"};
constexpr std::array<const char*, 4> kTextHeaders = {"p50", "p90", "p99", "p99.9"};

nlohmann::json side_json(const compare::PooledSide& s) {
  nlohmann::json out{{"label", s.label},           {"run", s.run_id},
                     {"runs", s.run_ids},          {"variant", s.variant},
                     {"iterations", s.iterations}, {"samples", s.samples}};
  for (std::size_t i = 0; i < kJsonKeys.size(); ++i)
    out[kJsonKeys[i]] = json_number(s.quantiles[i]);
  return out;
}

std::string quantile_cell(double v) { return std::isfinite(v) ? format_number(v) : "-"; }

}  // namespace

nlohmann::json pooled_json(const std::vector<compare::PooledLatency>& pooled) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& row : pooled) {
    nlohmann::json sides = nlohmann::json::array();
    for (const auto& s : row.sides) sides.push_back(side_json(s));
    out.push_back(
        {{"case", row.case_name},
         {"variant", row.variant.empty() ? nlohmann::json(nullptr) : nlohmann::json(row.variant)},
         {"histogram", row.histogram},
         {"unit", row.unit},
         {"pooled", true},
         {"sides", std::move(sides)}});
  }
  return out;
}

void print_pooled_text(const std::vector<compare::PooledLatency>& pooled, std::ostream& out) {
  if (pooled.empty()) return;
  out << "\npooled latency percentiles (every kept iteration's histogram merged, not a median "
         "of per-iteration percentiles):\n";
  std::vector<TextTable::Column> columns{{"case"}, {"histogram"}, {"side"}};
  for (const char* h : kTextHeaders) columns.push_back({h, TextTable::Align::kRight});
  columns.push_back({"unit"});
  columns.push_back({"iterations", TextTable::Align::kRight});
  columns.push_back({"samples", TextTable::Align::kRight});
  TextTable table(std::move(columns));
  for (const auto& row : pooled) {
    const std::string where =
        row.variant.empty() ? row.case_name : row.case_name + "/" + row.variant;
    for (const auto& s : row.sides) {
      std::vector<std::string> cells{where, row.histogram, s.label};
      for (double q : s.quantiles) cells.push_back(quantile_cell(q));
      cells.push_back(row.unit);
      cells.push_back(std::to_string(s.iterations));
      cells.push_back(std::to_string(s.samples));
      table.add_row(std::move(cells));
    }
  }
  table.print(out);
}

}  // namespace schedrig::report
