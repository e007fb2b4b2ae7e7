// The report's plots as inline SVG (svg.h): a per-iteration strip plot in
// run order with each series' distribution beside it, a sampled time
// series with starved intervals shaded, and a trend over runs or kernels.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace schedrig::report::html {

// One iteration's value.
struct StripPoint {
  double x = 0;  // its place in run order (schedule position; offset per run)
  double y = 0;
  bool disturbed = false;  // marked disturbed: drawn as a cross
  bool counted = true;     // kept by the comparison (else hollow)
  std::string tip;         // hover text: "autogroup-off #3: 127,553 ops/s"
};

// One variant (or one side's variant across runs).
struct StripSeries {
  std::string label;
  std::vector<StripPoint> points;
  std::vector<double> mode_centers;  // drawn as dashed lines when two (bimodal)
};

// A shaded band (the baseline's range) with a line at its centre (its median).
struct Band {
  double lo = 0, hi = 0, center = 0;
  std::string label;
};

struct StripPlot {
  std::string title;  // "fork-all: bogo_ops_per_s (ops/s, higher is better)"
  std::string unit;
  std::vector<StripSeries> series;  // one colour each, series_color(i)
  std::optional<Band> baseline;
};

// A strip plot (x: run order, y: value; one dot per iteration, a cross per
// disturbed one, hollow when the comparison left it out) and, at its right,
// a box per series (median, quartiles, whiskers to min/max) on the same y
// axis, with a legend. The <svg> carries class="strip".
std::string strip_plot_svg(const StripPlot& plot);

// One iteration's sampled intervals of one value.
struct TimeSegment {
  std::string series;                             // its variant: one colour per name
  std::vector<std::pair<double, double>> points;  // (seconds from the run's start, value)
};

// A starved interval: [t0, t1] seconds from the run's start.
struct Shade {
  double t0 = 0, t1 = 0;
  std::string tip;
};

struct TimePlot {
  std::string title, unit;
  std::vector<std::string> series;  // names in colour order
  std::vector<TimeSegment> segments;
  std::vector<Shade> starved;
};

// Lines per iteration over the run's time, starved intervals shaded red.
// class="timeseries".
std::string time_plot_svg(const TimePlot& plot);

// One run (or kernel) in a trend: median with its 95% interval.
struct TrendPoint {
  std::string label;  // x axis: the run's short id and date, or the kernel
  double median = 0, lo = 0, hi = 0;
  std::string mark;           // "(R)", "(I)" or "" against the previous point
  bool change_point = false;  // a change point across runs starts here
  std::string tip;
};

// Medians with interval bars in order, marks above, change points as a
// vertical dashed line. class="trend".
std::string trend_plot_svg(const std::string& title, const std::string& unit,
                           const std::vector<TrendPoint>& points);

}  // namespace schedrig::report::html
