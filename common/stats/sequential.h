// Sequential A/B probes (docs/bisect-knobs.md "Sequential probes"): pairs of
// iterations, one as found and one with a knob flipped, run in alternation
// (A B A B), and after each pair from the `min_pairs`-th on a look decides
// whether the flip changes the metric, and stops as soon as that is settled.
//
// The statistic is the paired log ratio d_i = ln(flipped_i / as_found_i),
// so a look's interval is on the change (flipped / as found - 1) and drift
// that hits both sides of a pair cancels. Each look's interval is a repeated
// confidence interval (Jennison & Turnbull, "Group Sequential Methods with
// Applications to Clinical Trials", 2000, ch. 9) with a Pocock-type
// boundary: one nominal two-sided level p* for every look, chosen so that
// under normal pairs the chance that ANY look's interval misses the true
// change is `alpha`. p* is the alpha-quantile of the smallest look p-value
// (Student t, n - 1 df) over simulated normal paths (sequential_nominal_p).
// Both decisions use the same intervals, so both are controlled at alpha:
//   - effect:    the interval excludes no change (0 %);
//   - no effect: the interval lies inside +-delta_pct (an equivalence test);
//   - unsettled: `max_pairs` were run and neither holds.
#pragma once

#include <functional>
#include <span>
#include <string>
#include <utility>

namespace schedrig::stats {

// When to look and how sure to be. Throws std::invalid_argument from
// check_rule when out of range.
struct SequentialRule {
  int min_pairs = 5;       // first look after this many pairs (>= 3)
  int max_pairs = 20;      // the last look (min_pairs..kMaxPairs)
  double alpha = 0.05;     // chance over all looks of a wrong decision (0, 0.5)
  double delta_pct = 2.0;  // the no-effect margin, % (the gate threshold), > 0
};

inline constexpr int kMaxPairs = 200;

// Throws std::invalid_argument naming the field and its bounds.
void check_rule(const SequentialRule& rule);

enum class Settled {
  kNotYet,     // keep going: fewer than max_pairs and nothing settled
  kEffect,     // the interval excludes 0
  kNoEffect,   // the interval is inside +-delta_pct
  kUnsettled,  // max_pairs reached with neither
};

// "not yet", "effect", "no effect", "unsettled".
std::string settled_name(Settled s);

// One look.
struct SequentialLook {
  Settled settled = Settled::kNotYet;
  int pairs = 0;
  double change_pct = 0;  // exp(mean d) - 1, %: the flipped side against as found
  double low_pct = 0;     // the repeated confidence interval of change_pct, %
  double high_pct = 0;
  double nominal_p = 0;  // p*: the interval is at level 1 - p*
};

// The common nominal level p* of the looks min_pairs..max_pairs at `alpha`,
// from 20000 seeded simulated paths (the lower 97.5% bound of the quantile) (the same on every
// build and call; cached per rule). Throws std::invalid_argument for a bad rule.
double sequential_nominal_p(const SequentialRule& rule);

// The look after the pairs (as_found[i], flipped[i]), i < n (equal sizes, n
// >= 2, values finite and > 0): kNotYet below min_pairs or when nothing is
// settled before max_pairs. Throws std::invalid_argument for unequal
// sizes, n < 2, n > max_pairs or a value that is not finite and positive.
SequentialLook sequential_look(std::span<const double> as_found, std::span<const double> flipped,
                               const SequentialRule& rule);

// The fixed-sample comparator: the same paired interval at level
// 1 - alpha after all n pairs, settled as kEffect when it excludes 0,
// else kNoEffect (what a fixed "10 iterations per side" run concludes).
SequentialLook fixed_look(std::span<const double> as_found, std::span<const double> flipped,
                          double alpha = 0.05);

// A whole probe: draws (as found, flipped) pairs from `next_pair` and looks
// after each until the look is settled (at most max_pairs pairs); returns
// the last look. What bench/time_to_verdict and the tests simulate.
SequentialLook run_sequential(const std::function<std::pair<double, double>()>& next_pair,
                              const SequentialRule& rule);

}  // namespace schedrig::stats
