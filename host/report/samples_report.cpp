#include "host/report/samples_report.h"

#include "common/printable.h"

#include <algorithm>
#include <functional>

#include <fmt/format.h>

#include "common/progress_line.h"
#include "host/report/format.h"
#include "host/report/results_csv.h"
#include "host/report/runs_text.h"
#include "host/report/text_table.h"

namespace schedrig::report {
namespace {

using Align = TextTable::Align;
using store::SampleRecord;

// One column of the sample lines: header, alignment, the width `watch`
// pads it to, and its cell.
struct SampleColumn {
  TextTable::Column column;
  std::size_t live_width;
  std::function<std::string(const SampleRecord&)> cell;
};

std::function<std::string(const SampleRecord&)> value_cell(const std::string& name) {
  return [name](const SampleRecord& s) {
    auto v = sample_value(s, name);
    return v ? format_number(*v) : std::string("-");
  };
}

using SampleCell = std::function<std::string(const SampleRecord&)>;

std::vector<SampleColumn> make_sample_columns() {
  // One push_back per column: GCC 12 warns falsely (-Wmaybe-uninitialized)
  // on a braced list of these.
  std::vector<SampleColumn> c;
  auto add = [&c](std::string header, Align align, std::size_t width, SampleCell cell) {
    SampleColumn column;
    column.column.header = std::move(header);
    column.column.align = align;
    column.live_width = width;
    column.cell = std::move(cell);
    c.push_back(std::move(column));
  };
  add("TIME", Align::kLeft, 24, [](const SampleRecord& s) { return format_utc_ms(s.t_ns); });
  add("CASE", Align::kLeft, 12, [](const SampleRecord& s) { return s.case_name; });
  add("VARIANT", Align::kLeft, 14, [](const SampleRecord& s) { return s.variant; });
  add("ITER", Align::kRight, 4, [](const SampleRecord& s) { return std::to_string(s.iteration); });
  add("OPS", Align::kRight, 11,
      [](const SampleRecord& s) { return format_number(static_cast<double>(s.ops_so_far)); });
  add("IDLE%", Align::kRight, 5, value_cell("idle_pct"));
  add("RUNNABLE", Align::kRight, 8, value_cell("runnable"));
  add("CTXT/S", Align::kRight, 9, value_cell("ctxt_per_s"));
  add("WAIT%", Align::kRight, 5, value_cell("wait_share_pct"));
  add("NEWIDLE/S", Align::kRight, 9, value_cell("newidle_lb_per_s"));
  add("PSI%", Align::kRight, 4, value_cell("psi_some_pct"));
  add("FLAGS", Align::kLeft, 0,
      [](const SampleRecord& s) { return std::string(s.starved ? "STARVED" : ""); });
  return c;
}

const std::vector<SampleColumn>& sample_columns() {
  static const std::vector<SampleColumn> columns = make_sample_columns();
  return columns;
}

// The live view's columns: the table's with POS after TIME.
constexpr std::size_t kPosColumn = 1;
constexpr std::size_t kPosWidth = 7;

std::vector<TextTable::Column> live_columns() {
  std::vector<TextTable::Column> out;
  for (const auto& c : sample_columns()) out.push_back(c.column);
  out.insert(out.begin() + kPosColumn, {"POS", Align::kRight});
  return out;
}

std::vector<std::size_t> live_widths() {
  std::vector<std::size_t> out;
  for (const auto& c : sample_columns()) out.push_back(c.live_width);
  out.insert(out.begin() + kPosColumn, kPosWidth);
  return out;
}

std::vector<std::string> cells_of(const SampleRecord& s) {
  std::vector<std::string> out;
  for (const auto& c : sample_columns()) out.push_back(c.cell(s));
  return out;
}

std::string pos_text(unsigned position, unsigned planned) {
  return fmt::format("{}/{}", position + 1, planned);
}

// Where `name` sorts among value names: SampleRecord::values order, with
// the per-node busy shares after idle_pct by node number.
std::pair<int, long> name_rank(const std::string& name) {
  static const std::vector<std::string> order = {"idle_pct",
                                                 "busy_pct_node",
                                                 "ctxt_per_s",
                                                 "intr_per_s",
                                                 "forks_per_s",
                                                 "runnable",
                                                 "blocked",
                                                 "wait_share_pct",
                                                 "newidle_lb_per_s",
                                                 "newidle_failed_pct",
                                                 "run_delay_ms_per_s",
                                                 "psi_some_pct",
                                                 "numa_pages_migrated_per_s",
                                                 "numa_miss_per_s",
                                                 "load1"};
  const std::string node_prefix = order[1];
  if (name.rfind(node_prefix, 0) == 0) {
    return {1, std::strtol(name.c_str() + node_prefix.size(), nullptr, 10)};
  }
  auto at = std::find(order.begin(), order.end(), name);
  return {static_cast<int>(at - order.begin()), 0};  // unknown names last
}

}  // namespace

std::optional<double> sample_value(const SampleRecord& s, std::string_view name) {
  for (const auto& [n, v] : s.values) {
    if (n == name) return v;
  }
  return std::nullopt;
}

void print_samples_table(const std::vector<SampleRecord>& samples, std::ostream& out) {
  std::vector<TextTable::Column> columns;
  for (const auto& c : sample_columns()) columns.push_back(c.column);
  TextTable table(std::move(columns));
  for (const auto& s : samples) table.add_row(cells_of(s));
  table.print(out);
}

nlohmann::json sample_json(const SampleRecord& s) {
  nlohmann::json values = nlohmann::json::object();
  for (const auto& [name, v] : s.values) values[name] = v;
  return {{"run_id", s.run_id},
          {"case", s.case_name},
          {"variant", s.variant},
          {"iteration", s.iteration},
          {"position", s.position},
          {"t_ns", s.t_ns},
          {"interval_s", s.interval_s},
          {"ops_so_far", s.ops_so_far},
          {"values", std::move(values)},
          {"starved", s.starved},
          {"starved_reason", s.starved_reason}};
}

nlohmann::json samples_json(const std::vector<SampleRecord>& samples) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& s : samples) list.push_back(sample_json(s));
  return {{"samples", std::move(list)}};
}

void print_samples_csv(const std::vector<SampleRecord>& samples, std::ostream& out) {
  std::vector<std::string> names;
  for (const auto& s : samples) {
    for (const auto& [name, v] : s.values) {
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
  }
  std::stable_sort(names.begin(), names.end(), [](const std::string& a, const std::string& b) {
    return name_rank(a) < name_rank(b);
  });
  std::vector<std::string> header = {"run_id",   "case", "variant",    "iteration",
                                     "position", "t_ns", "interval_s", "ops_so_far"};
  header.insert(header.end(), names.begin(), names.end());
  header.insert(header.end(), {"starved", "starved_reason"});
  print_csv_row(header, out);
  for (const auto& s : samples) {
    std::vector<std::string> row = {s.run_id,
                                    s.case_name,
                                    s.variant,
                                    std::to_string(s.iteration),
                                    std::to_string(s.position),
                                    std::to_string(s.t_ns),
                                    csv_number(s.interval_s),
                                    std::to_string(s.ops_so_far)};
    for (const auto& name : names) {
      auto v = sample_value(s, name);
      row.push_back(v ? csv_number(*v) : "");
    }
    row.insert(row.end(), {s.starved ? "1" : "0", s.starved_reason});
    print_csv_row(row, out);
  }
}

SampleLineWriter::SampleLineWriter(std::ostream& out, unsigned planned)
    : out_(out), planned_(planned) {}

void SampleLineWriter::header() {
  std::vector<std::string> cells;
  for (const auto& c : live_columns()) cells.push_back(c.header);
  out_ << TextTable::format_line(live_columns(), live_widths(), cells) << '\n';
}

void SampleLineWriter::sample(const SampleRecord& s) {
  std::vector<std::string> cells = cells_of(s);
  cells.insert(cells.begin() + kPosColumn, pos_text(s.position, planned_));
  out_ << TextTable::format_line(live_columns(), live_widths(), cells) << '\n';
}

void SampleLineWriter::iteration(const store::IterationRecord& it) {
  std::string line =
      fmt::format("{:<{}}  [{}] {} / {} / iteration {}: {}", format_utc_ms(it.finished_at_ns),
                  sample_columns()[0].live_width, pos_text(it.position, planned_), it.case_name,
                  it.variant, it.iteration, primary_metric_text(it));
  out_ << printable(line)
       << iteration_flags(it.quiet_gave_up, it.quiet_wait_s, it.sample_summary.starved_intervals)
       << '\n';
}

}  // namespace schedrig::report
