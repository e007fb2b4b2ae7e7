// A measured value as workloads report it (DESIGN.md "Results model").
#pragma once

#include <map>
#include <string>
#include <vector>

namespace schedrig::workloads {

enum class Direction { kHigherIsBetter, kLowerIsBetter };

struct Metric {
  std::string name;  // e.g. "bogo_ops_per_s"
  double value = 0;
  std::string unit;  // e.g. "ops/s"
  Direction direction = Direction::kHigherIsBetter;
};

// What one workload run yields: metrics[0] is the workload's primary metric;
// `effective_params` are the parameters as run, "auto" resolved ("workers" ->
// "8").
struct WorkloadResult {
  std::vector<Metric> metrics;
  std::map<std::string, std::string> effective_params;
};

}  // namespace schedrig::workloads
