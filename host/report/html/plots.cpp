#include "host/report/html/plots.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "host/analysis/series.h"
#include "host/report/html/svg.h"

namespace schedrig::report::html {
namespace {

constexpr double kLeft = 70, kTop = 24, kBottom = 28;

struct Range {
  double lo = std::numeric_limits<double>::infinity();
  double hi = -std::numeric_limits<double>::infinity();
  void add(double v) {
    if (!std::isfinite(v)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  bool empty() const { return lo > hi; }
  // Padded by 5% a side (or +-5% around a single value, +-1 around 0), for
  // the y axis; never below 0 when no value is.
  Range padded() const {
    if (empty()) return {0, 1};
    const double pad = hi > lo ? (hi - lo) * 0.05 : std::max(std::abs(lo) * 0.05, 1e-9);
    const double low = lo - (lo == 0 && hi == 0 ? 1 : pad);
    return {lo >= 0 ? std::max(0.0, low) : low, hi + (lo == 0 && hi == 0 ? 1 : pad)};
  }
};

// A tick's label: compact (38.1k) unless the ticks are closer than its
// three significant digits tell apart, then as many decimals as the step needs.
std::string tick_label(double t, const std::vector<double>& ticks) {
  if (ticks.size() < 2) return analysis::format_compact(t);
  const double step = ticks[1] - ticks[0];
  const double magnitude = std::max(std::abs(ticks.front()), std::abs(ticks.back()));
  if (magnitude < 1000 && step > 0 && step < magnitude / 100) {
    const int decimals = std::clamp(static_cast<int>(std::ceil(-std::log10(step))), 0, 9);
    return fmt::format("{:.{}f}", t, decimals);
  }
  return analysis::format_compact(t);
}

// The y axis: grid lines and tick labels over [x0, x1].
void y_axis(Svg& svg, const Scale& y, double x0, double x1) {
  const std::vector<double> ticks = nice_ticks(y.d0, y.d1);
  for (double t : ticks) {
    const double py = y(t);
    svg.line(x0, py, x1, py, "#ddd");
    svg.text(x0 - 6, py + 4, tick_label(t, ticks), "end", R"(class="tick")");
  }
  svg.line(x0, y.r0, x0, y.r1, "#888");
}

// The x axis' tick labels (format_compact) under the plot area at `y`.
void x_ticks(Svg& svg, const Scale& x, double y) {
  const std::vector<double> ticks = nice_ticks(x.d0, x.d1, 8);
  for (double t : ticks) {
    svg.line(x(t), y, x(t), y + 4, "#888");
    svg.text(x(t), y + 14, tick_label(t, ticks), "middle", R"(class="tick")");
  }
}

// Legend entries left to right along the top.
void legend(Svg& svg, const std::vector<std::string>& names, double x) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    svg.rect(x, 6, 10, 10, series_color(i));
    svg.text(x + 14, 15, names[i], "start", R"(class="legend")");
    x += 24 + 7.0 * static_cast<double>(std::min<std::size_t>(names[i].size(), 40));
  }
}

// Linear-interpolated quantile of sorted values.
double quantile(const std::vector<double>& sorted, double q) {
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - static_cast<double>(lo));
}

// A box (quartiles, median, whiskers to min and max) of `values` at x.
void box(Svg& svg, const Scale& y, std::vector<double> values, double x, double w,
         std::string_view color, const std::string& name) {
  if (values.empty()) return;
  std::sort(values.begin(), values.end());
  const double q1 = quantile(values, 0.25), med = quantile(values, 0.5),
               q3 = quantile(values, 0.75);
  const std::string tip =
      fmt::format("{}: median {}, quartiles {} .. {}, range {} .. {}, n={}", name,
                  analysis::format_compact(med), analysis::format_compact(q1),
                  analysis::format_compact(q3), analysis::format_compact(values.front()),
                  analysis::format_compact(values.back()), values.size());
  svg.line(x + w / 2, y(values.front()), x + w / 2, y(values.back()), color);
  svg.rect(x, y(q3), w, y(q1) - y(q3), "white", fmt::format(R"(stroke="{}")", color), tip);
  svg.line(x, y(med), x + w, y(med), color, R"(stroke-width="2")");
}

std::vector<std::string> labels_of(const std::vector<StripSeries>& series) {
  std::vector<std::string> out;
  for (const auto& s : series) out.push_back(s.label);
  return out;
}

}  // namespace

std::string strip_plot_svg(const StripPlot& plot) {
  constexpr double kWidth = 860, kHeight = 270, kStripRight = 640, kBoxLeft = 670;
  Range xr, yr;
  for (const auto& s : plot.series) {
    for (const auto& p : s.points) {
      xr.add(p.x);
      yr.add(p.y);
    }
  }
  if (plot.baseline) {
    yr.add(plot.baseline->lo);
    yr.add(plot.baseline->hi);
  }
  const Range ypad = yr.padded();
  const Scale y{ypad.lo, ypad.hi, kHeight - kBottom, kTop};
  const Scale x{xr.empty() ? 0 : xr.lo, xr.empty() ? 1 : xr.hi, kLeft + 8, kStripRight - 8};
  Svg svg(kWidth, kHeight, plot.title);
  y_axis(svg, y, kLeft, kWidth - 10);
  svg.text((kLeft + kStripRight) / 2, kHeight - 6, "iterations in run order", "middle",
           R"(class="axis")");
  svg.text(kLeft - 60, kTop - 8, plot.unit, "start", R"(class="axis")");
  if (plot.baseline) {
    const Band& b = *plot.baseline;
    svg.rect(kLeft, y(b.hi), kStripRight - kLeft, y(b.lo) - y(b.hi), "#eee", R"(class="band")",
             b.label);
    svg.line(kLeft, y(b.center), kStripRight, y(b.center), "#999", R"(stroke-dasharray="2 2")");
  }
  for (std::size_t i = 0; i < plot.series.size(); ++i) {
    const StripSeries& s = plot.series[i];
    const std::string_view color = series_color(i);
    if (s.mode_centers.size() > 1) {
      for (double c : s.mode_centers) {
        svg.line(kLeft, y(c), kStripRight, y(c), color,
                 R"(stroke-dasharray="6 3" class="mode" opacity="0.7")");
      }
    }
    std::vector<double> counted;
    for (const StripPoint& p : s.points) {
      if (p.disturbed) {
        svg.cross(x(p.x), y(p.y), 4, color, p.tip);
      } else {
        svg.circle(x(p.x), y(p.y), 3.5, p.counted ? color : "white", color, p.tip);
      }
      if (p.counted) counted.push_back(p.y);
    }
    const double w = std::min(36.0, 160.0 / static_cast<double>(plot.series.size()));
    box(svg, y, counted, kBoxLeft + static_cast<double>(i) * (w + 6), w, color, s.label);
  }
  legend(svg, labels_of(plot.series), kLeft);
  std::string out = svg.str();
  out.insert(4, R"( class="strip")");
  return out;
}

std::string time_plot_svg(const TimePlot& plot) {
  constexpr double kWidth = 860, kHeight = 210;
  constexpr std::size_t kMaxDots = 3000;  // beyond this, lines only
  Range xr, yr;
  std::size_t points = 0;
  for (const auto& seg : plot.segments) {
    for (const auto& [t, v] : seg.points) {
      xr.add(t);
      yr.add(v);
    }
    points += seg.points.size();
  }
  yr.add(0);
  const Range ypad = yr.padded();
  const Scale y{std::max(ypad.lo, yr.lo >= 0 ? 0.0 : ypad.lo), ypad.hi, kHeight - kBottom - 10,
                kTop};
  const Scale x{xr.empty() ? 0 : xr.lo, xr.empty() ? 1 : xr.hi, kLeft, kWidth - 10};
  Svg svg(kWidth, kHeight, plot.title);
  for (const Shade& s : plot.starved) {
    svg.rect(x(s.t0), kTop, std::max(x(s.t1) - x(s.t0), 2.0), y.r0 - kTop, "#f4b6b6",
             R"(class="starved")", s.tip);
  }
  y_axis(svg, y, kLeft, kWidth - 10);
  x_ticks(svg, x, y.r0);
  svg.text(kLeft - 60, kTop - 8, plot.unit, "start", R"(class="axis")");
  svg.text((kLeft + kWidth) / 2, kHeight - 6, "seconds since the run started", "middle",
           R"(class="axis")");
  for (const TimeSegment& seg : plot.segments) {
    const auto found = std::find(plot.series.begin(), plot.series.end(), seg.series);
    const auto index = static_cast<std::size_t>(found - plot.series.begin());
    std::vector<std::pair<double, double>> pts;
    for (const auto& [t, v] : seg.points) pts.emplace_back(x(t), y(v));
    svg.polyline(pts, series_color(index));
    if (points > kMaxDots) continue;
    for (const auto& [px, py] : pts) svg.circle(px, py, 1.8, series_color(index), "none");
  }
  legend(svg, plot.series, kLeft);
  std::string out = svg.str();
  out.insert(4, R"( class="timeseries")");
  return out;
}

std::string trend_plot_svg(const std::string& title, const std::string& unit,
                           const std::vector<TrendPoint>& points) {
  constexpr double kWidth = 860, kHeight = 260;
  Range yr;
  for (const auto& p : points) {
    yr.add(p.lo);
    yr.add(p.hi);
    yr.add(p.median);
  }
  const Range ypad = yr.padded();
  const Scale y{ypad.lo, ypad.hi, kHeight - kBottom - 20, kTop};
  const double n = static_cast<double>(std::max<std::size_t>(points.size(), 1));
  const auto px = [&](std::size_t i) {
    return kLeft + (static_cast<double>(i) + 0.5) * (kWidth - 10 - kLeft) / n;
  };
  Svg svg(kWidth, kHeight, title);
  y_axis(svg, y, kLeft, kWidth - 10);
  svg.text(kLeft - 60, kTop - 8, unit, "start", R"(class="axis")");
  std::vector<std::pair<double, double>> line;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const TrendPoint& p = points[i];
    if (p.change_point) {
      svg.line(px(i) - (kWidth - 10 - kLeft) / n / 2, kTop, px(i) - (kWidth - 10 - kLeft) / n / 2,
               kHeight - kBottom - 20, "#D55E00", R"(stroke-dasharray="4 3" class="change")");
    }
    svg.line(px(i), y(p.lo), px(i), y(p.hi), series_color(0));
    svg.circle(px(i), y(p.median), 4, series_color(0), series_color(0), p.tip);
    if (!p.mark.empty()) svg.text(px(i), y(p.hi) - 6, p.mark, "middle", R"(class="mark")");
    svg.text(px(i), kHeight - 30, p.label, "middle", R"(class="tick")");
    line.emplace_back(px(i), y(p.median));
  }
  svg.polyline(line, series_color(0));
  std::string out = svg.str();
  out.insert(4, R"( class="trend")");
  return out;
}

}  // namespace schedrig::report::html
