// A measured value as workloads report it (docs/architecture.md "Results model").
#pragma once

#include <cstdint>
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

// A latency histogram stored whole (proto schedrig.v1.Histogram), so the host
// can pool iterations before taking percentiles. Only non-empty buckets are
// listed, ascending; lower_bounds[i] is the inclusive lower bound of bucket i
// in `unit`, counts[i] its number of samples (same length). Buckets come from
// LatencyHistogram (latency_histogram.h): a bucket spans [lower, next lower of
// the full scale), at most 1/64 of its lower bound wide.
struct Histogram {
  std::string name;  // e.g. "wakeup_latency"
  std::string unit;  // of lower_bounds, e.g. "us"
  std::vector<double> lower_bounds;
  std::vector<std::uint64_t> counts;
};

// What one workload run yields: metrics[0] is the workload's primary metric;
// `effective_params` are the parameters as run, "auto" resolved ("workers" ->
// "8"); `histograms` are the latency distributions the workload measured
// (empty for fork).
struct WorkloadResult {
  std::vector<Metric> metrics;
  std::map<std::string, std::string> effective_params;
  std::vector<Histogram> histograms;
};

}  // namespace schedrig::workloads
