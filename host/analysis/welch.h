// Welch's unequal-variance t-test (Welch 1947) with the Welch–Satterthwaite
// degrees of freedom, and its confidence interval for the difference of means.
#pragma once

#include <span>

namespace schedrig::analysis {

struct WelchResult {
  double diff = 0;  // mean(y) - mean(x)
  double se = 0;    // sqrt(s_x^2 / m + s_y^2 / n)
  double t = 0;     // diff / se; +-inf when se is 0 and diff is not
  // (s_x^2/m + s_y^2/n)^2 / ((s_x^2/m)^2/(m-1) + (s_y^2/n)^2/(n-1));
  // m + n - 2 when both variances are 0.
  double df = 0;
  double p_value = 1;  // two-sided, 2 P(T_df >= |t|) (Boost.Math students_t); NaN (lo, hi too)
                       // when the mean or SD of a side overflows a double
  double lo = 0;       // diff -+ t_{(1+confidence)/2, df} se
  double hi = 0;
};

// Welch's t-test of mean(y) against mean(x) (finite values, at least two in
// each; throws std::invalid_argument otherwise). Both samples constant:
// se = 0, so p = 1 and [lo, hi] = [0, 0] when the means agree, else p = 0
// and [lo, hi] = [diff, diff].
WelchResult welch_t_test(std::span<const double> x, std::span<const double> y,
                         double confidence = 0.95);

}  // namespace schedrig::analysis
