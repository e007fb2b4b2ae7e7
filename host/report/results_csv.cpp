#include "host/report/results_csv.h"

#include <fmt/format.h>

#include "host/report/format.h"

namespace schedrig::report {

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

void print_csv_row(const std::vector<std::string>& fields, std::ostream& out) {
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out << ',';
    out << csv_field(fields[i]);
  }
  out << '\n';
}

void print_results_csv(const std::vector<store::RunRecord>& runs, std::ostream& out) {
  print_csv_row(
      {"run_id", "case", "variant", "iteration", "status", "metric", "value", "unit", "direction"},
      out);
  for (const auto& run : runs) {
    for (const auto& it : run.iterations) {
      std::vector<std::string> prefix = {run.run_id, it.case_name, it.variant,
                                         std::to_string(it.iteration), it.status};
      if (it.metrics.empty()) {
        prefix.insert(prefix.end(), {"", "", "", ""});
        print_csv_row(prefix, out);
        continue;
      }
      for (const auto& m : it.metrics) {
        std::vector<std::string> row = prefix;
        row.insert(row.end(), {m.name, csv_number(m.value), m.unit, m.direction});
        print_csv_row(row, out);
      }
    }
  }
}

}  // namespace schedrig::report
