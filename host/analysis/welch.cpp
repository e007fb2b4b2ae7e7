#include "host/analysis/welch.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include <boost/math/distributions/students_t.hpp>

#include "host/analysis/descriptive.h"

namespace schedrig::analysis {
namespace {

// Welch–Satterthwaite df = (vx + vy)^2 / (vx^2/(m-1) + vy^2/(n-1)) with
// vx = sd_x^2/m, vy = sd_y^2/n, written with x's share w = vx / (vx + vy):
// 1 / (w^2/(m-1) + (1-w)^2/(n-1)). Not both sd 0.
double welch_df(double sd_x, double sd_y, double m, double n) {
  double w = 0;  // sd_x == 0: all of the variance is y's
  if (sd_x > 0) {
    const double ratio = sd_y / sd_x;
    w = 1 / (1 + ratio * ratio * m / n);
  }
  return 1 / (w * w / (m - 1) + (1 - w) * (1 - w) / (n - 1));
}

// Values too large for the test (the mean or SD overflowed): no p-value.
WelchResult undefined(WelchResult r) {
  r.p_value = r.lo = r.hi = std::numeric_limits<double>::quiet_NaN();
  return r;
}

}  // namespace

WelchResult welch_t_test(std::span<const double> x, std::span<const double> y, double confidence) {
  if (x.size() < 2 || y.size() < 2) {
    throw std::invalid_argument("welch_t_test: each sample needs at least two values");
  }
  const Summary sx = summarize(x), sy = summarize(y);
  const double m = static_cast<double>(sx.n), n = static_cast<double>(sy.n);
  WelchResult r;
  r.diff = sy.mean - sx.mean;
  // hypot, and the df from the variance shares: no square of a variance,
  // which overflows for values near 1e80.
  r.se = std::hypot(sx.sd / std::sqrt(m), sy.sd / std::sqrt(n));
  if (r.se == 0) {
    r.df = m + n - 2;
    r.t = r.diff == 0 ? 0 : std::copysign(std::numeric_limits<double>::infinity(), r.diff);
    r.p_value = r.diff == 0 ? 1 : 0;
    r.lo = r.hi = r.diff;
    return r;
  }
  r.df = welch_df(sx.sd, sy.sd, m, n);
  r.t = r.diff / r.se;
  if (!std::isfinite(r.df) || !std::isfinite(r.t)) return undefined(r);
  const boost::math::students_t dist(r.df);
  r.p_value = std::min(1.0, 2 * boost::math::cdf(boost::math::complement(dist, std::fabs(r.t))));
  const double q = boost::math::quantile(boost::math::complement(dist, (1 - confidence) / 2));
  r.lo = r.diff - q * r.se;
  r.hi = r.diff + q * r.se;
  return r;
}

}  // namespace schedrig::analysis
