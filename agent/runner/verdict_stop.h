// A plan's `iterations: {min, max, stop: verdict}` (docs/architecture.md
// "Plans, variants, iterations"): the runner records each iteration's
// judged metric (the case's gate metric, else its primary one), and after a
// round of a case from `min` on asks whether every variant's verdict
// against the baseline (variant 0), paired round by round, is settled by
// the sequential rule (common/stats/sequential.h); a settled case runs no
// more rounds. A failed iteration, a missing metric or a value that is not
// positive keeps the case going to `max`: only measurements settle.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "common/plan/schedule.h"
#include "common/stats/sequential.h"
#include "schedrig/v1/plan.pb.h"
#include "schedrig/v1/result.pb.h"

namespace schedrig::runner {

class VerdictStop {
 public:
  // Does nothing (skips nothing) for a plan without iteration_stop.
  explicit VerdictStop(const v1::Plan& plan);

  // True when `slot`'s case is settled: the runner skips it.
  bool skips(const Slot& slot) const;

  // Records `r` (the result of `slot`); when it completes a round of its
  // case at or after `min`, looks, and returns the case's verdicts when
  // they are now all settled ("variant NO_X: effect +12.1% [+9.8, +14.5]
  // after 5 rounds"), else an empty list.
  std::vector<std::string> record(const Slot& slot, const v1::IterationResult& r);

 private:
  struct CaseState {
    std::string metric;  // the judged metric's name; "" = the primary one
    stats::SequentialRule rule;
    std::vector<std::vector<double>> values;  // [variant][round - 1]; NaN = none
    bool spoiled = false;                     // a round without a usable value
    bool settled = false;
  };
  std::vector<std::string> look(CaseState& c, std::uint32_t round);

  const v1::Plan& plan_;
  bool active_ = false;
  std::vector<CaseState> cases_;
};

}  // namespace schedrig::runner
