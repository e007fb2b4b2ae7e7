#include "host/analysis/welch.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include <boost/math/distributions/students_t.hpp>

#include "host/analysis/descriptive.h"

namespace schedrig::analysis {

WelchResult welch_t_test(std::span<const double> x, std::span<const double> y, double confidence) {
  if (x.size() < 2 || y.size() < 2) {
    throw std::invalid_argument("welch_t_test: each sample needs at least two values");
  }
  const Summary sx = summarize(x), sy = summarize(y);
  const double m = static_cast<double>(sx.n), n = static_cast<double>(sy.n);
  const double vx = sx.sd * sx.sd / m, vy = sy.sd * sy.sd / n;
  WelchResult r;
  r.diff = sy.mean - sx.mean;
  r.se = std::sqrt(vx + vy);
  if (r.se == 0) {
    r.df = m + n - 2;
    r.t = r.diff == 0 ? 0 : std::copysign(std::numeric_limits<double>::infinity(), r.diff);
    r.p_value = r.diff == 0 ? 1 : 0;
    r.lo = r.hi = r.diff;
    return r;
  }
  r.df = (vx + vy) * (vx + vy) / (vx * vx / (m - 1) + vy * vy / (n - 1));
  r.t = r.diff / r.se;
  const boost::math::students_t dist(r.df);
  r.p_value = std::min(1.0, 2 * boost::math::cdf(boost::math::complement(dist, std::fabs(r.t))));
  const double q = boost::math::quantile(boost::math::complement(dist, (1 - confidence) / 2));
  r.lo = r.diff - q * r.se;
  r.hi = r.diff + q * r.se;
  return r;
}

}  // namespace schedrig::analysis
