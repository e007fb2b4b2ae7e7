// Mode analysis of one series: is it two stable levels ("bimodal"), and how
// often does it flip between them? The rule and its parameters are in
// docs/statistics.md ("Modes and flips").
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "host/analysis/descriptive.h"

namespace schedrig::analysis {

// One level of a series.
struct Mode {
  double center = 0;                   // median of the members
  std::size_t count = 0;               // members
  double cov_pct = 0;                  // CoV of the members, percent (NaN for one member)
  std::vector<std::size_t> positions;  // 0-based positions of the members in the input, ascending
};

// Parameters of the bimodality rule (defaults are the documented ones).
struct ModeOptions {
  std::size_t min_group = 2;       // each group needs at least this many members
  double min_gap_pct = 5.0;        // gap >= this percent of |median of the series|
  double min_gap_to_spread = 3.0;  // gap >= this times the larger group spread
  // Up to floor(transit_fraction * size) members of each group, those
  // nearest the other group, are treated as in transit between the levels
  // and left out of the gap and spread (0 for groups under 10 members, so
  // small series need a truly empty gap). Per-second series catch the
  // seconds in which a flip happens.
  double transit_fraction = 0.10;
  // A group's spread is its sample SD times sqrt((m - 1) / chi2_{1-q, m-1}),
  // the upper q confidence bound of sigma for m members (so two members
  // that happen to sit close together do not pass as a tight level).
  double spread_confidence = 0.75;
};

struct ModeAnalysis {
  bool bimodal = false;
  // Two modes when bimodal (most members first; on a tie, the lower level
  // first), else one mode holding every value. Empty for an empty series.
  std::vector<Mode> modes;
  std::size_t flips = 0;  // changes of mode between consecutive positions; 0 unless bimodal
  // The best split into a low and a high group, reported even when the
  // series is not bimodal (0, NaN when n < 2).
  std::size_t low_count = 0, high_count = 0;
  double gap = kNaN;            // high core's min - low core's max, in the data's unit
  double gap_pct = kNaN;        // gap / |median| * 100; NaN when the median is 0
  double gap_to_spread = kNaN;  // gap / larger group spread; +inf when both spreads are 0
};

// Index k (1 <= k < n) that splits ascending `sorted` into [0, k) and
// [k, n) with the least total within-group sum of squares: the exact
// optimum for two groups in one dimension (Fisher 1958, "On grouping for
// maximum homogeneity"; Jenks natural breaks with two classes), found in
// O(n) from prefix sums. Throws std::invalid_argument when n < 2.
std::size_t best_two_group_split(std::span<const double> sorted);

// Mode analysis of `values` in iteration order. Bimodal when, for the best
// split, each group has >= min_group members, gap_pct >= min_gap_pct and
// gap_to_spread >= min_gap_to_spread.
ModeAnalysis analyze_modes(std::span<const double> values, const ModeOptions& options = {});

}  // namespace schedrig::analysis
