#include "host/report/compare_header.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/printable.h"
#include "host/report/run_status_text.h"

namespace schedrig::report {

using compare::ComparedRun;
using compare::DisturbedPolicy;
using compare::FingerprintDifference;
using compare::short_id;
using compare::Table;

namespace {

// The short ids of one side's runs, ", "-separated.
std::string side_ids(const Table& t, bool reference) {
  std::vector<std::string> ids;
  for (const auto& r : t.runs) {
    if (r.reference == reference) ids.push_back(short_id(r.run_id));
  }
  return fmt::format("{}", fmt::join(ids, ", "));
}

std::string who(const std::string& ids, bool several, const std::string& agent,
                const std::string& kernel) {
  std::string where = agent;
  if (!kernel.empty()) where = where.empty() ? kernel : fmt::format("{}, {}", where, kernel);
  const std::string runs = fmt::format("{} {}", several ? "runs" : "run", ids);
  return where.empty() ? runs : fmt::format("{} ({})", runs, where);
}

std::string header_line(const Table& t) {
  if (t.against_run_id.empty()) {
    std::string line = who(short_id(t.run_id), false, t.run_agent, t.run_kernel);
    if (!t.plan_name.empty()) line += fmt::format(", plan '{}'", t.plan_name);
    return fmt::format("{}: each variant against '{}'", line, t.baseline_label);
  }
  const auto count = [&](bool reference) {
    return std::count_if(t.runs.begin(), t.runs.end(),
                         [&](const ComparedRun& r) { return r.reference == reference; });
  };
  return fmt::format("{} against {}",
                     who(side_ids(t, false), count(false) > 1, t.run_agent, t.run_kernel),
                     who(side_ids(t, true), count(true) > 1, t.against_agent, t.against_kernel));
}

// "a b c" vs "a c d": " -b +d" style, for long space-separated values.
std::string token_difference(const std::string& from, const std::string& to) {
  auto split = [](const std::string& s) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < s.size()) {
      while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
      std::size_t j = i;
      while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j]))) ++j;
      if (j > i) out.push_back(s.substr(i, j - i));
      i = j;
    }
    return out;
  };
  const auto a = split(from), b = split(to);
  auto contains = [](const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
  };
  std::string out;
  for (const auto& tok : a) {
    if (!contains(b, tok)) out += fmt::format(" -{}", tok);
  }
  for (const auto& tok : b) {
    if (!contains(a, tok)) out += fmt::format(" +{}", tok);
  }
  return out.empty() ? " (same words, other order)" : out;
}

void print_differences(const std::vector<FingerprintDifference>& diffs, std::ostream& out) {
  for (const auto& d : diffs) {
    const bool long_words =
        d.reference.find(' ') != std::string::npos || d.run.find(' ') != std::string::npos;
    if (long_words && !d.reference.empty() && !d.run.empty()) {
      out << printable(fmt::format("  {}:{}", d.field, token_difference(d.reference, d.run)))
          << '\n';
    } else {
      out << printable(fmt::format("  {}: {} -> {}", d.field,
                                   d.reference.empty() ? "-" : d.reference,
                                   d.run.empty() ? "-" : d.run))
          << '\n';
    }
  }
}

std::string boots_word(std::size_t n) { return n == 0 ? "unknown" : std::to_string(n); }

// Across runs: boots a side, fingerprint and topology differences, forced pairings.
void print_across(const Table& t, std::ostream& out) {
  out << printable(fmt::format("boots: {} behind {}, {} behind {}", boots_word(t.reference_boots),
                               t.baseline_label, boots_word(t.run_boots), t.columns.front()))
      << '\n';
  const std::string arrow = fmt::format("({} -> {})", t.baseline_label, t.columns.front());
  if (t.fingerprint_differences.empty()) {
    out << "fingerprint: no field differs\n";
  } else {
    out << printable(fmt::format("fingerprint fields that differ {}:", arrow)) << '\n';
    print_differences(t.fingerprint_differences, out);
  }
  if (!t.topology_differences.empty()) {
    out << printable(fmt::format("topology fields that differ {}:", arrow)) << '\n';
    print_differences(t.topology_differences, out);
  }
  if (!t.forced.empty()) {
    out << "--force: paired cases whose definitions differ:\n";
    for (const auto& f : t.forced) out << "  " << printable(f) << '\n';
  }
}

}  // namespace

std::string disturbed_line(const ComparedRun& run, DisturbedPolicy policy) {
  const std::string id = short_id(run.run_id);
  const auto iterations = [](unsigned n) { return n == 1 ? "iteration" : "iterations"; };
  switch (policy) {
    case DisturbedPolicy::kExclude:
      if (run.left_out == 0) return "";
      return fmt::format("run {}: {} disturbed {} left out (--disturbed include to count them)", id,
                         run.left_out, iterations(run.left_out));
    case DisturbedPolicy::kInclude:
      if (run.disturbed == 0) return "";
      return fmt::format("run {}: {} disturbed {} counted (--disturbed include)", id, run.disturbed,
                         iterations(run.disturbed));
    case DisturbedPolicy::kOnly:
      break;
  }
  return fmt::format(
      "run {}: only its {} disturbed {} counted (--disturbed only; {} others left out)", id,
      run.disturbed, iterations(run.disturbed), run.left_out);
}

std::string persisted_knobs_line(const ComparedRun& run) {
  if (run.persisted_knobs.empty()) return "";
  return fmt::format(
      "run {}: its box sets knobs at every boot (the box as found is not the "
      "kernel's default): {}",
      short_id(run.run_id), run.persisted_knobs);
}

void print_compare_header(const Table& t, std::ostream& out) {
  out << printable(header_line(t)) << '\n';
  for (const auto& r : t.runs) {
    const std::string status = run_status_note(
        {r.run_id, r.status, r.reason, r.ok_iterations, r.planned_iterations, r.started});
    if (!status.empty()) out << printable(status) << '\n';
  }
  for (const auto& r : t.runs) {
    const std::string line = disturbed_line(r, t.disturbed);
    if (!line.empty()) out << printable(line) << '\n';
  }
  for (const auto& r : t.runs) {
    const std::string line = persisted_knobs_line(r);
    if (!line.empty()) out << printable(line) << '\n';
  }
  if (!t.against_run_id.empty()) print_across(t, out);
}

}  // namespace schedrig::report
