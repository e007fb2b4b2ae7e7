// The cliff: a variant of which some iterations fall beyond the baseline's
// range (a partial shift, typically a second mode) while the rest stay put.
// A rank test of location has little power there; Rosenbaum's exceedance
// test (Rosenbaum 1954, "Tables for a nonparametric test of location", Ann.
// Math. Statist. 25) counts the variant iterations beyond the baseline's
// extreme and has an exact permutation p-value. docs/statistics.md "The cliff".
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "host/analysis/verdict.h"

namespace schedrig::analysis {

// P(K >= k) for K the number of the n variant values below the minimum (or,
// the same by symmetry, above the maximum) of the m baseline values, when
// all C(m + n, m) rank arrangements of the pooled values are equally likely
// (exchangeable, no ties): K >= k exactly when the k smallest pooled values
// are all variant values, so
//   P(K >= k) = C(n, k) / C(m + n, k) = prod_{i<k} (n - i) / (m + n - i).
// 1 for k = 0, 0 for k > n. m >= 1.
double exceedance_p(std::size_t m, std::size_t n, std::size_t k);

// The smallest k with exceedance_p(m, n, k) < alpha_tail; n + 1 when none.
std::size_t exceedance_critical_count(std::size_t m, std::size_t n, double alpha_tail);

// True when a cliff of n - 1 of the n variant iterations (all but one stay
// put) reaches alpha_tail: exceedance_critical_count(m, n, alpha_tail) < n.
// Equal sides at alpha_tail = 0.0125 (95%, two tails, Bonferroni with the
// rank test): 6 per side is the fewest (5 of 6 beyond, p = 0.0076).
bool cliff_decidable(std::size_t m, std::size_t n, double alpha_tail);

// The significance level of each tail for a confidence: (1 - confidence) / 4
// (the exceedance test two-sided at alpha / 2).
double cliff_alpha_tail(double confidence);

// Rosenbaum's exceedance test of `variant` against the range of `baseline`
// (finite values, both sides >= 1). Strict comparisons: a variant value
// equal to the baseline's min or max does not count, which makes the p-values
// conservative under ties. `decidable` from cliff_decidable; the tails are
// significant only when decidable. `level` and `level_change_pct` as Cliff
// says; tested = true.
Cliff exceedance_test(std::span<const double> baseline, std::span<const double> variant,
                      double confidence);

// The cliff in a row's words (numbers as describe() writes them):
//   "cliff: 6 of 10 iterations at ~38.1k (-69.7%)"  one tail significant and
//                                                   not every iteration beyond
//   "spread: 2 below, 3 above"                      both tails significant
//   "cliff undecidable at n=5" (or "n=10 vs 4")     tested, not decidable
//   ""                                              nothing to say
std::string describe_cliff(const Comparison& c);

}  // namespace schedrig::analysis
