#include "agent/tools/schbench_output.h"

#include <map>
#include <optional>
#include <regex>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "agent/tools/tool_error.h"
#include "agent/tools/tool_text.h"

namespace schedrig::tools {
namespace {

using workloads::Direction;
using workloads::Metric;

// One percentile block: label ("p99_9") -> value, plus min and max.
struct Block {
  std::map<std::string, double> percentiles;
  std::optional<double> max;
};

// What the text and the JSON report, by block name ("wakeup_latency",
// "request_latency", "rps") and the run's totals.
struct Report {
  std::map<std::string, Block> blocks;
  std::optional<double> average_rps, rps_goal, transfers_per_s;
  std::optional<double> message_delay_us, worker_delay_us;
};

// The block a header line opens, or "" when `line` is no header.
std::string block_of(const std::string& line) {
  if (line.starts_with("Wakeup Latencies percentiles")) return "wakeup_latency";
  if (line.starts_with("Request Latencies percentiles")) return "request_latency";
  if (line.starts_with("RPS percentiles")) return "rps";
  if (line.starts_with("Latency percentiles (usec)")) return "wakeup_latency";  // v1
  return "";
}

void read_text_line(const std::string& line, std::string& block, Report& r) {
  static const std::regex row(R"(^\s*\*?\s*([0-9]+(?:\.[0-9]+)?)th:\s*([0-9]+))");
  static const std::regex min_max(R"(^\s*min=([0-9]+),\s*max=([0-9]+))");
  static const std::regex delay(
      R"(^sched delay: message ([0-9]+) \(usec\) worker ([0-9]+) \(usec\))");
  std::smatch m;
  if (const std::string opened = block_of(line); !opened.empty()) {
    block = opened;
    r.blocks[block] = Block{};  // a later block of the same kind replaces it
  } else if (!block.empty() && std::regex_search(line, m, row)) {
    r.blocks[block].percentiles[percentile_label(m[1].str())] = to_double(m[2].str());
  } else if (!block.empty() && std::regex_search(line, m, min_max)) {
    r.blocks[block].max = to_double(m[2].str());
    block.clear();
  } else if (auto v = number_after(line, "average rps: ")) {
    r.average_rps = v;
  } else if (auto goal = number_after(line, "final rps goal was ")) {
    r.rps_goal = goal;
  } else if (auto t = number_after(line, "avg worker transfer: ")) {
    r.transfers_per_s = t;
  } else if (std::regex_search(line, m, delay)) {
    r.message_delay_us = to_double(m[1].str());
    r.worker_delay_us = to_double(m[2].str());
  }
}

// The `-j -` object's "int" member: "wakeup_latency_pct99.0": 20, ...,
// "wakeup_latency_max": 8400. Anything else (no JSON, a hostname schbench
// did not escape) leaves `r` as the text made it.
void read_json(const std::string& text, Report& r) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (!j.is_object() || !j.contains("int") || !j["int"].is_object()) return;
  for (const auto& [key, value] : j["int"].items()) {
    if (!value.is_number()) continue;
    for (const char* block : {"wakeup_latency", "request_latency", "rps"}) {
      const std::string prefix = std::string(block) + "_";
      if (!key.starts_with(prefix)) continue;
      const std::string rest = key.substr(prefix.size());
      if (rest.starts_with("pct")) {
        r.blocks[block].percentiles[percentile_label(rest.substr(3))] = value.get<double>();
      } else if (rest == "max") {
        r.blocks[block].max = value.get<double>();
      }
    }
  }
}

void add_block(std::vector<Metric>& out, const Report& r, const std::string& name,
               const std::string& unit, Direction d) {
  const auto it = r.blocks.find(name);
  if (it == r.blocks.end()) return;
  const std::string suffix = unit == "us" ? "_us" : "";
  for (const auto& [label, value] : it->second.percentiles) {
    out.push_back({fmt::format("{}_{}{}", name, label, suffix), value, unit, d});
  }
  if (it->second.max) out.push_back({name + "_max" + suffix, *it->second.max, unit, d});
}

std::optional<Metric> primary(const Report& r) {
  using D = Direction;
  if (r.average_rps)
    return Metric{"requests_per_s", *r.average_rps, "requests/s", D::kHigherIsBetter};
  if (r.transfers_per_s) {
    return Metric{"transfers_per_s", *r.transfers_per_s, "ops/s", D::kHigherIsBetter};
  }
  const auto rps = r.blocks.find("rps");
  if (rps != r.blocks.end() && rps->second.percentiles.contains("p50")) {
    return Metric{"requests_per_s", rps->second.percentiles.at("p50"), "requests/s",
                  D::kHigherIsBetter};
  }
  const auto wakeup = r.blocks.find("wakeup_latency");
  if (wakeup != r.blocks.end() && wakeup->second.percentiles.contains("p99")) {
    return Metric{"wakeup_latency_p99_us", wakeup->second.percentiles.at("p99"), "us",
                  D::kLowerIsBetter};
  }
  return std::nullopt;
}

}  // namespace

std::vector<Metric> parse_schbench_output(const std::string& stdout_text,
                                          const std::string& stderr_text) {
  Report r;
  std::string block;
  for_each_line(stderr_text, [&](const std::string& line) { read_text_line(line, block, r); });
  read_json(stdout_text, r);
  const std::optional<Metric> first = primary(r);
  if (!first) {
    throw ToolRunError("schbench: no latency report in its output: " +
                       quote_tail(stderr_text + stdout_text));
  }
  std::vector<Metric> out{*first};
  add_block(out, r, "wakeup_latency", "us", Direction::kLowerIsBetter);
  add_block(out, r, "request_latency", "us", Direction::kLowerIsBetter);
  add_block(out, r, "rps", "requests/s", Direction::kHigherIsBetter);
  if (r.message_delay_us) {
    out.push_back({"message_sched_delay_us", *r.message_delay_us, "us", Direction::kLowerIsBetter});
    out.push_back({"worker_sched_delay_us", *r.worker_delay_us, "us", Direction::kLowerIsBetter});
  }
  // The primary metric once: wakeup_latency_p99_us may be both (v1).
  for (auto it = out.begin() + 1; it != out.end(); ++it) {
    if (it->name == out.front().name) {
      out.erase(it);
      break;
    }
  }
  return out;
}

}  // namespace schedrig::tools
