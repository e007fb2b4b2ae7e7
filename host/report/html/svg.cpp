#include "host/report/html/svg.h"

#include <array>
#include <cmath>

#include <fmt/format.h>

#include "host/report/html/html_text.h"

namespace schedrig::report::html {
namespace {

std::string title_element(std::string_view tip) {
  return tip.empty() ? "" : "<title>" + html_escaped(tip) + "</title>";
}

}  // namespace

double Scale::operator()(double v) const {
  if (d1 == d0) return (r0 + r1) / 2;
  return r0 + (v - d0) / (d1 - d0) * (r1 - r0);
}

std::vector<double> nice_ticks(double lo, double hi, int count) {
  if (!std::isfinite(lo) || !std::isfinite(hi) || hi <= lo || count < 1) return {lo};
  const double raw = (hi - lo) / count;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude * 10;
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (magnitude * m >= raw) {
      step = magnitude * m;
      break;
    }
  }
  std::vector<double> out;
  for (double t = std::ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) {
    out.push_back(std::abs(t) < step * 1e-9 ? 0.0 : t);
    if (out.size() > 50) break;
  }
  return out;
}

std::string_view series_color(std::size_t index) {
  static constexpr std::array<std::string_view, 8> kColors = {
      "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"};
  return kColors[index % kColors.size()];
}

Svg::Svg(double width, double height, std::string_view label)
    : width_(width), height_(height), label_(label) {}

void Svg::line(double x1, double y1, double x2, double y2, std::string_view stroke,
               std::string_view extra) {
  body_ += fmt::format(R"(<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" {}/>)", svg_number(x1),
                       svg_number(y1), svg_number(x2), svg_number(y2), stroke, extra);
}

void Svg::rect(double x, double y, double w, double h, std::string_view fill,
               std::string_view extra, std::string_view tip) {
  body_ += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="{}" {}>{}</rect>)",
                       svg_number(x), svg_number(y), svg_number(std::max(w, 0.0)),
                       svg_number(std::max(h, 0.0)), fill, extra, title_element(tip));
}

void Svg::circle(double cx, double cy, double r, std::string_view fill, std::string_view stroke,
                 std::string_view tip) {
  body_ +=
      fmt::format(R"(<circle cx="{}" cy="{}" r="{}" fill="{}" stroke="{}">{}</circle>)",
                  svg_number(cx), svg_number(cy), svg_number(r), fill, stroke, title_element(tip));
}

void Svg::cross(double cx, double cy, double r, std::string_view stroke, std::string_view tip) {
  body_ += fmt::format(
      R"(<path class="disturbed" d="M{} {}L{} {}M{} {}L{} {}" stroke="{}" stroke-width="1.5">{}</path>)",
      svg_number(cx - r), svg_number(cy - r), svg_number(cx + r), svg_number(cy + r),
      svg_number(cx - r), svg_number(cy + r), svg_number(cx + r), svg_number(cy - r), stroke,
      title_element(tip));
}

void Svg::polyline(const std::vector<std::pair<double, double>>& points, std::string_view stroke) {
  if (points.empty()) return;
  std::string pts;
  for (const auto& [x, y] : points) pts += svg_number(x) + "," + svg_number(y) + " ";
  pts.pop_back();
  body_ += fmt::format(R"(<polyline points="{}" fill="none" stroke="{}" stroke-width="1.2"/>)", pts,
                       stroke);
}

void Svg::text(double x, double y, std::string_view content, std::string_view anchor,
               std::string_view extra) {
  body_ += fmt::format(R"(<text x="{}" y="{}" text-anchor="{}" {}>{}</text>)", svg_number(x),
                       svg_number(y), anchor, extra, html_escaped(content));
}

std::string Svg::str() const {
  return fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {} {}" width="{}" height="{}" role="img" aria-label="{}">{}</svg>)",
      svg_number(width_), svg_number(height_), svg_number(width_), svg_number(height_),
      html_escaped(label_), body_);
}

}  // namespace schedrig::report::html
