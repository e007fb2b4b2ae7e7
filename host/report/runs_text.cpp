#include "host/report/runs_text.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "common/printable.h"
#include "host/report/format.h"
#include "host/report/text_table.h"

namespace schedrig::report {
namespace {

using Align = TextTable::Align;

std::string plan_name(const store::RunRecord& run) {
  if (!run.plan.is_object()) return "";
  auto it = run.plan.find("name");
  return it != run.plan.end() && it->is_string() ? it->get<std::string>() : "";
}

}  // namespace

void print_runs_table(const std::vector<store::RunRecord>& runs, std::ostream& out) {
  TextTable table({{"RUN"},
                   {"STARTED"},
                   {"AGENT"},
                   {"KERNEL"},
                   {"STATUS"},
                   {"ITERATIONS", Align::kRight},
                   {"PLAN"},
                   {"LABELS"}});
  for (const auto& run : runs) {
    table.add_row({run.run_id.substr(0, 8), format_utc(run.started_at_ns), run.agent_id,
                   dash_if_empty(run.kernel_release), run.status,
                   fmt::format("{}/{}", run.iterations.size(), run.planned_iterations),
                   dash_if_empty(plan_name(run)), dash_if_empty(format_labels(run.labels))});
  }
  table.print(out);
}

std::string agent_name(const store::RunRecord& run) {
  if (run.hostname.empty() || run.hostname == run.agent_id) return run.agent_id;
  return fmt::format("{} ({})", run.agent_id, run.hostname);
}

void print_run_detail(const store::RunRecord& run, std::ostream& out) {
  const std::string agent = agent_name(run);
  out << fmt::format("run       {}\n", run.run_id);
  out << fmt::format("agent     {}\n", printable(agent));
  out << fmt::format("kernel    {}\n", printable(dash_if_empty(run.kernel_release)));
  out << fmt::format("PUs       {}\n", run.pus);
  out << fmt::format("plan      {}\n", printable(dash_if_empty(plan_name(run))));
  out << fmt::format("labels    {}\n", printable(dash_if_empty(format_labels(run.labels))));
  out << fmt::format("status    {} ({}/{} iterations)\n", run.status, run.iterations.size(),
                     run.planned_iterations);
  if (!run.reason.empty()) out << fmt::format("reason    {}\n", printable(run.reason));
  out << fmt::format("started   {}\n", format_utc(run.started_at_ns));
  out << fmt::format("finished  {}\n", format_utc(run.finished_at_ns));
  out << '\n';

  bool any_reason = false;
  std::size_t number_width = 0;
  for (const auto& it : run.iterations) {
    any_reason = any_reason || !it.reason.empty() || it.disturbed;
    if (!it.metrics.empty()) {
      number_width = std::max(number_width, format_number(it.metrics.front().value).size());
    }
  }
  std::vector<TextTable::Column> columns = {{"CASE"},   {"VARIANT"}, {"ITER", Align::kRight},
                                            {"STATUS"}, {"METRIC"},  {"VALUE"}};
  if (any_reason) columns.push_back({"REASON"});
  TextTable table(std::move(columns));
  for (const auto& it : run.iterations) {
    // A disturbed iteration is ok but left out of compare by default: say so.
    std::vector<std::string> row = {it.case_name, it.variant, std::to_string(it.iteration),
                                    it.disturbed ? it.status + " (disturbed)" : it.status};
    if (it.metrics.empty()) {
      row.insert(row.end(), {"-", "-"});
    } else {
      // "127,553 ops/s": numbers right-aligned among themselves, unit after.
      const store::MetricRecord& primary = it.metrics.front();
      std::string value = fmt::format("{:>{}}", format_number(primary.value), number_width);
      if (!primary.unit.empty()) value += " " + primary.unit;
      row.insert(row.end(), {primary.name, value});
    }
    if (any_reason)
      row.push_back(it.disturbed && it.reason.empty() ? it.disturbed_reason : it.reason);
    table.add_row(std::move(row));
  }
  table.print(out);
}

std::string primary_metric_text(const store::IterationRecord& it) {
  if (it.status != "ok") {
    std::string status = it.status;
    std::transform(status.begin(), status.end(), status.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return it.reason.empty() ? status : status + ": " + it.reason;
  }
  if (it.metrics.empty()) return "-";
  const store::MetricRecord& primary = it.metrics.front();
  std::string text = format_number(primary.value);
  if (!primary.unit.empty()) text += " " + primary.unit;
  return text;
}

void print_fingerprint(const store::RunRecord& run, std::ostream& out) {
  out << printable(fmt::format("fingerprint of run {} (agent {}, kernel {}):", run.run_id,
                               agent_name(run), dash_if_empty(run.kernel_release)))
      << '\n';
  if (run.fingerprint.empty()) {
    out << "  (none stored)\n";
    return;
  }
  TextTable table({{"  field"}, {"value"}});
  for (const auto& [field, value] : run.fingerprint) table.add_row({"  " + field, value});
  table.print(out);
}

}  // namespace schedrig::report
