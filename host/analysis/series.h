// Everything schedrig says about one series on its own: summary, modes and
// flips, drift, and the sentence that says it in words.
#pragma once

#include <span>
#include <string>

#include "host/analysis/descriptive.h"
#include "host/analysis/modes.h"
#include "host/analysis/trend.h"

namespace schedrig::analysis {

struct SeriesAnalysis {
  Summary summary;
  ModeAnalysis modes;
  // Drift as detect_drift sees it, except that present is false when the
  // series is bimodal: two separated levels are modes (a level shift is a
  // bimodal series with one flip), a steady climb or fall is drift.
  Drift drift;
  double lag1 = kNaN;  // lag-1 autocorrelation (descriptive.h)
};

// Analysis of `values` in iteration order (finite values).
SeriesAnalysis analyze_series(std::span<const double> values, const ModeOptions& modes = {},
                              const DriftOptions& drift = {});

// The series in words, e.g.
//   "bimodal: 6 of 10 iterations at ~38.1k (CoV 0.3%), 4 at ~126k (CoV 1.1%); 2 flips"
//   "drift: +44% over 6 iterations (tau 1.00)"
//   "one mode, CoV 0.8%", "constant", "1 iteration", "no iterations".
std::string describe(const SeriesAnalysis& analysis);

// A number in three significant digits with k/M/G for thousands:
// 38120 -> "38.1k", 125893 -> "126k", 0.0123 -> "0.0123", 1.5e9 -> "1.5G".
std::string format_compact(double v);

// A percentage with two decimals, signed: 4.1289 -> "+4.13%", -0.2 -> "-0.20%",
// NaN -> "n/a".
std::string format_change(double pct);

}  // namespace schedrig::analysis
