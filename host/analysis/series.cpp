#include "host/analysis/series.h"

#include <cmath>

#include <fmt/format.h>

namespace schedrig::analysis {
namespace {

std::string cov_text(double cov_pct) {
  if (!std::isfinite(cov_pct)) return "CoV n/a";
  return fmt::format("CoV {:.1f}%", cov_pct);
}

std::string plural(std::size_t n, const char* word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

}  // namespace

SeriesAnalysis analyze_series(std::span<const double> values, const ModeOptions& modes,
                              const DriftOptions& drift) {
  SeriesAnalysis a;
  a.summary = summarize(values);
  a.modes = analyze_modes(values, modes);
  a.drift = detect_drift(values, drift);
  if (a.modes.bimodal) a.drift.present = false;
  a.lag1 = lag1_autocorrelation(values);
  return a;
}

std::string format_compact(double v) {
  if (std::isnan(v)) return "n/a";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  const double a = std::fabs(v);
  struct Scale {
    double factor;
    const char* suffix;
  };
  for (Scale s : {Scale{1e9, "G"}, Scale{1e6, "M"}, Scale{1e3, "k"}}) {
    // 999.96k would print as "1e+03k": move up a scale once it rounds to 1000.
    if (a >= s.factor * 0.9995) return fmt::format("{:.3g}{}", v / s.factor, s.suffix);
  }
  if (v == 0) return "0";
  return fmt::format("{:.3g}", v);
}

std::string format_change(double pct) {
  if (!std::isfinite(pct)) return "n/a";
  return fmt::format("{:+.2f}%", pct);
}

std::string describe(const SeriesAnalysis& a) {
  const std::size_t n = a.summary.n;
  if (n == 0) return "no iterations";
  if (n == 1) return "1 iteration";
  if (a.modes.bimodal && a.modes.modes.size() == 2) {
    const Mode& first = a.modes.modes[0];
    const Mode& second = a.modes.modes[1];
    return fmt::format("bimodal: {} of {} iterations at ~{} ({}), {} at ~{} ({}); {}", first.count,
                       n, format_compact(first.center), cov_text(first.cov_pct), second.count,
                       format_compact(second.center), cov_text(second.cov_pct),
                       plural(a.modes.flips, "flip"));
  }
  if (a.drift.present) {
    return fmt::format("drift: {:+.0f}% over {} iterations (tau {:.2f})", a.drift.change_pct, n,
                       a.drift.tau);
  }
  if (a.summary.sd == 0) return "constant";
  return fmt::format("one mode, {}", cov_text(a.summary.cov_pct));
}

}  // namespace schedrig::analysis
