#include "host/analysis/verdict.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>
#include <boost/math/distributions/normal.hpp>

#include "host/analysis/cliff.h"
#include "host/analysis/hodges_lehmann.h"
#include "host/analysis/mann_whitney.h"
#include "host/analysis/welch.h"

namespace schedrig::analysis {
namespace {

int sign(double v) { return v > 0 ? 1 : v < 0 ? -1 : 0; }

double pct_of(double v, double reference) {
  return reference == 0 ? kNaN : 100.0 * v / std::fabs(reference);
}

}  // namespace

std::string_view to_string(Method m) {
  switch (m) {
    case Method::kAuto:
      return "auto";
    case Method::kMannWhitney:
      return "mwu";
    case Method::kWelch:
      return "welch";
    case Method::kCiOverlap:
      return "ci-overlap";
  }
  return "?";
}

std::string_view to_string(StatTest t) {
  switch (t) {
    case StatTest::kNone:
      return "none";
    case StatTest::kMannWhitney:
      return "mann-whitney";
    case StatTest::kWelchLog:
      return "welch-log";
    case StatTest::kWelch:
      return "welch";
    case StatTest::kCiOverlap:
      return "ci-overlap";
  }
  return "?";
}

std::string_view to_string(Verdict v) {
  switch (v) {
    case Verdict::kImprovement:
      return "improvement";
    case Verdict::kRegression:
      return "regression";
    case Verdict::kNone:
      return "none";
    case Verdict::kInsufficient:
      return "insufficient";
  }
  return "?";
}

std::string_view mark(Verdict v) {
  switch (v) {
    case Verdict::kImprovement:
      return "(I)";
    case Verdict::kRegression:
      return "(R)";
    case Verdict::kNone:
      return "";
    case Verdict::kInsufficient:
      return "?";
  }
  return "";
}

void append_note(std::string& note, const std::string& text) {
  if (!note.empty()) note += "; ";
  note += text;
}

std::optional<Method> parse_method(std::string_view word) {
  for (Method m : {Method::kAuto, Method::kMannWhitney, Method::kWelch, Method::kCiOverlap}) {
    if (word == to_string(m)) return m;
  }
  return std::nullopt;
}

namespace {

// The two samples being compared and what every test needs of them.
struct Samples {
  std::span<const double> baseline, variant;
  std::size_t nb, nv;
  double med_b;
  const CompareOptions& options;
};

// The smallest two-sided p-value the exact Mann-Whitney test can give at
// these sizes: 2 / C(m + n, m).
double rank_test_floor(std::size_t m, std::size_t n) {
  double c = 1;
  for (std::size_t i = 1; i <= m; ++i) {
    c = c * static_cast<double>(n + i) / static_cast<double>(i);
  }
  return std::min(1.0, 2 / c);
}

// Mann-Whitney U for the p-value, Hodges-Lehmann for the interval; the test
// is significant at half of 1 - confidence, the cliff having the other half.
// Returns the direction of the shift (+1 variant higher, -1 lower, 0 none).
int rank_test(const Samples& s, Comparison& c) {
  const MannWhitneyResult mw = mann_whitney(s.baseline, s.variant);
  c.test = StatTest::kMannWhitney;
  c.p_value = mw.p_value;
  // Positive values (rates, latencies): the shift of log values, i.e. a
  // ratio, so the interval can never say "-150%" of a positive metric.
  // Ranks, and so the p-value, are the same on either scale.
  const bool ratio = all_positive(s.baseline) && all_positive(s.variant);
  const double confidence = s.options.confidence;
  const HodgesLehmann hl =
      ratio ? hodges_lehmann(log_values(s.baseline), log_values(s.variant), confidence)
            : hodges_lehmann(s.baseline, s.variant, confidence);
  c.ci_lo_pct = ratio ? 100.0 * std::expm1(hl.lo) : pct_of(hl.lo, s.med_b);
  c.ci_hi_pct = ratio ? 100.0 * std::expm1(hl.hi) : pct_of(hl.hi, s.med_b);
  const double alpha_rank = (1 - confidence) / 2;
  c.significant = c.p_value < alpha_rank;
  if (hl.confidence < confidence) {
    append_note(c.note, fmt::format("a rank test cannot reach {:g}% with n={} vs {} (interval "
                                    "shown: {:.0f}%)",
                                    100 * confidence, s.nb, s.nv, 100 * hl.confidence));
  } else if (const double floor = rank_test_floor(s.nb, s.nv); floor >= alpha_rank) {
    append_note(c.note, fmt::format("a rank test cannot reach {:g}% with n={} vs {} (p >= {:.4f}, "
                                    "its share beside the cliff is {:g})",
                                    100 * confidence, s.nb, s.nv, floor, alpha_rank));
  }
  return sign(mw.u_y - static_cast<double>(s.nb) * static_cast<double>(s.nv) / 2);
}

// Rosenbaum's exceedance test beside the rank test (cliff.h). Fills c.cliff
// and c.spread; when the rank test is not significant and exactly one tail
// is, the change is significant in that tail's direction. Returns the
// direction (`rank_direction` unless the cliff decided).
int cliff_test(const Samples& s, Comparison& c, int rank_direction, bool decidable) {
  c.cliff = exceedance_test(s.baseline, s.variant, s.options.confidence);
  if (!decidable) {
    c.cliff.decidable = false;
    c.cliff.significant_below = c.cliff.significant_above = false;
  }
  const bool below = c.cliff.significant_below, above = c.cliff.significant_above;
  c.spread = below && above;
  if (c.significant || below == above) return rank_direction;
  c.significant = true;
  return below ? -1 : 1;
}

// Welch's t on log values (or on raw values when any is <= 0). Returns the direction.
int welch_test(const Samples& s, Comparison& c) {
  c.parametric = true;
  int direction = 0;
  if (all_positive(s.baseline) && all_positive(s.variant)) {
    const WelchResult w =
        welch_t_test(log_values(s.baseline), log_values(s.variant), s.options.confidence);
    c.test = StatTest::kWelchLog;
    c.p_value = w.p_value;
    c.ci_lo_pct = 100.0 * std::expm1(w.lo);
    c.ci_hi_pct = 100.0 * std::expm1(w.hi);
    direction = sign(w.diff);
  } else {
    const WelchResult w = welch_t_test(s.baseline, s.variant, s.options.confidence);
    const double mean_b = summarize(s.baseline).mean;
    c.test = StatTest::kWelch;
    c.p_value = w.p_value;
    c.ci_lo_pct = pct_of(w.lo, mean_b);
    c.ci_hi_pct = pct_of(w.hi, mean_b);
    direction = sign(w.diff);
    append_note(c.note, "values <= 0: Welch's t on raw values");
  }
  c.significant = c.p_value < 1 - s.options.confidence;
  if (s.options.method == Method::kAuto) {
    append_note(c.note, fmt::format("parametric: Welch's t on log values from few iterations "
                                    "(n={} vs {})",
                                    s.nb, s.nv));
  }
  return direction;
}

// Fastpath / mmtests style: each side's mean +- z sd, marked when the two
// intervals do not overlap. Returns the direction.
int ci_overlap_test(const Samples& s, Comparison& c) {
  c.parametric = true;
  c.test = StatTest::kCiOverlap;
  const Summary sb = summarize(s.baseline), sv = summarize(s.variant);
  const double z = boost::math::quantile(boost::math::normal(), (1 + s.options.confidence) / 2);
  const double lo_b = sb.mean - z * sb.sd, hi_b = sb.mean + z * sb.sd;
  const double lo_v = sv.mean - z * sv.sd, hi_v = sv.mean + z * sv.sd;
  c.significant = lo_v > hi_b || hi_v < lo_b;
  c.ci_lo_pct = pct_of(lo_v - hi_b, sb.mean);
  c.ci_hi_pct = pct_of(hi_v - lo_b, sb.mean);
  return sign(sv.mean - sb.mean);
}

// The test options.method names (kAuto: rank test and cliff with enough
// iterations, else Welch's t with the cliff undecidable). Returns the direction.
int run_test(const Samples& s, Comparison& c) {
  Method method = s.options.method;
  const bool few = s.nb < kRankTestMinIterations || s.nv < kRankTestMinIterations;
  if (method == Method::kAuto) {
    if (!few) return cliff_test(s, c, rank_test(s, c), true);
    const int direction = welch_test(s, c);
    cliff_test(s, c, direction, false);
    return direction;
  }
  switch (method) {
    case Method::kAuto:  // handled above
    case Method::kMannWhitney:
      return cliff_test(s, c, rank_test(s, c), true);
    case Method::kWelch:
      return welch_test(s, c);
    case Method::kCiOverlap:
      return ci_overlap_test(s, c);
  }
  return 0;
}

// The size of the change the threshold is held against: the cliff's level
// change when the cliff alone made the change significant, else change_pct.
double change_size_pct(const Comparison& c, const CompareOptions& options) {
  const bool rank_significant = c.p_value < (1 - options.confidence) / 2;
  const bool cliff_decided = c.test == StatTest::kMannWhitney && c.significant && !rank_significant;
  return cliff_decided ? c.cliff.level_change_pct : c.change_pct;
}

// The verdict from significance, direction and the threshold.
void set_verdict(Comparison& c, int direction, const CompareOptions& options) {
  if (!c.significant || direction == 0) {
    c.verdict = Verdict::kNone;
  } else if (const double size = change_size_pct(c, options);
             std::isfinite(size) && std::fabs(size) < options.threshold_pct) {
    c.verdict = Verdict::kNone;
    append_note(c.note,
                fmt::format("significant, but below the {:g}% threshold", options.threshold_pct));
  } else {
    c.verdict =
        (direction > 0) == options.higher_is_better ? Verdict::kImprovement : Verdict::kRegression;
  }
}

}  // namespace

Comparison compare_samples(std::span<const double> baseline, std::span<const double> variant,
                           const CompareOptions& options) {
  Comparison c;
  const Samples s{baseline, variant, baseline.size(), variant.size(), median(baseline), options};
  const double med_v = median(variant);
  if (s.nb > 0 && s.nv > 0) c.change_pct = pct_of(med_v - s.med_b, s.med_b);
  if (s.nb > 0 && s.nv > 0 && s.med_b == 0)
    append_note(c.note, "baseline median is 0: change % undefined");
  if (s.nb < kMinIterations || s.nv < kMinIterations) {
    c.verdict = Verdict::kInsufficient;
    append_note(c.note,
                fmt::format("fewer than {} iterations (n={} vs {})", kMinIterations, s.nb, s.nv));
    return c;
  }
  set_verdict(c, run_test(s, c), options);
  return c;
}

void add_series_notes(Comparison& c, const SeriesAnalysis& baseline,
                      const SeriesAnalysis& variant) {
  const struct {
    const char* side;
    const SeriesAnalysis& a;
  } sides[] = {{"baseline", baseline}, {"variant", variant}};
  for (const auto& [side, a] : sides) {
    if (a.modes.bimodal) {
      append_note(c.note, fmt::format("{} bimodal ({} flip{})", side, a.modes.flips,
                                      a.modes.flips == 1 ? "" : "s"));
    } else if (a.drift.present) {
      append_note(c.note, fmt::format("{} drift {:+.0f}%", side, a.drift.change_pct));
    } else if (std::isfinite(a.summary.cov_pct) && a.summary.cov_pct > 10) {
      append_note(c.note, fmt::format("{} noisy (CoV {:.1f}%)", side, a.summary.cov_pct));
    }
    if (a.summary.n >= 20 && std::isfinite(a.lag1) && a.lag1 >= 0.5) {
      append_note(c.note, fmt::format("{} iterations autocorrelated (lag-1 r {:.2f}): the p-value "
                                      "overstates the evidence",
                                      side, a.lag1));
    }
  }
}

Comparison compare_series(std::span<const double> baseline, std::span<const double> variant,
                          const CompareOptions& options, SeriesAnalysis* baseline_analysis,
                          SeriesAnalysis* variant_analysis) {
  Comparison c = compare_samples(baseline, variant, options);
  const SeriesAnalysis b = analyze_series(baseline), v = analyze_series(variant);
  add_series_notes(c, b, v);
  if (baseline_analysis) *baseline_analysis = b;
  if (variant_analysis) *variant_analysis = v;
  return c;
}

}  // namespace schedrig::analysis
