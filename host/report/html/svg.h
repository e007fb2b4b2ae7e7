// A small SVG writer for the report's plots (inline in the page: no
// script, no external file). Coordinates in user units (px at 100%); text
// is escaped (html_text.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace schedrig::report::html {

// A linear map from data [d0, d1] to pixels [r0, r1]; a zero-width domain
// maps to the middle of the range.
struct Scale {
  double d0 = 0, d1 = 1, r0 = 0, r1 = 1;
  double operator()(double v) const;
};

// About `count` round tick values covering [lo, hi] (1, 2, 5 times a power
// of ten apart), ascending; {lo} when lo == hi or either is not finite.
std::vector<double> nice_ticks(double lo, double hi, int count = 5);

// The 8 Okabe-Ito colours (colour-blind safe), by index modulo 8.
std::string_view series_color(std::size_t index);

class Svg {
 public:
  // `label`: the plot's accessible name (role="img", aria-label).
  Svg(double width, double height, std::string_view label);

  // `tip` (optional) becomes a <title> child: the browser shows it on hover.
  void line(double x1, double y1, double x2, double y2, std::string_view stroke,
            std::string_view extra = "");
  void rect(double x, double y, double w, double h, std::string_view fill,
            std::string_view extra = "", std::string_view tip = "");
  void circle(double cx, double cy, double r, std::string_view fill, std::string_view stroke,
              std::string_view tip = "");
  // A cross (disturbed iteration): two lines through (cx, cy), half size `r`.
  void cross(double cx, double cy, double r, std::string_view stroke, std::string_view tip = "");
  void polyline(const std::vector<std::pair<double, double>>& points, std::string_view stroke);
  // anchor: "start" | "middle" | "end".
  void text(double x, double y, std::string_view content, std::string_view anchor = "start",
            std::string_view extra = "");

  // The finished element.
  std::string str() const;

 private:
  double width_, height_;
  std::string label_, body_;
};

}  // namespace schedrig::report::html
