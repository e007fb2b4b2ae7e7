// Text for HTML: every string from a run (case, variant, label, kernel,
// fingerprint value: remote data) goes through html_escaped before it
// reaches a page, so a plan cannot inject markup or script into a report.
#pragma once

#include <string>
#include <string_view>

namespace schedrig::report::html {

// `text` with & < > " ' as entities and control characters (other than
// tab and newline) as U+FFFD-free visible escapes ("\x1b"): safe in element
// content and in quoted attribute values.
std::string html_escaped(std::string_view text);

// A number for an SVG coordinate: fixed, at most 2 decimals, no exponent;
// 0 for NaN or an infinity.
std::string svg_number(double v);

}  // namespace schedrig::report::html
