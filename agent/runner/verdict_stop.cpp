#include "agent/runner/verdict_stop.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

namespace schedrig::runner {
namespace {

constexpr double kNone = std::numeric_limits<double>::quiet_NaN();

// The judged metric's value in `r`, or NaN.
double judged_value(const v1::IterationResult& r, const std::string& metric) {
  if (r.status() != v1::STATUS_OK || r.metrics_size() == 0) return kNone;
  if (metric.empty()) return r.metrics(0).value();
  for (const auto& m : r.metrics())
    if (m.name() == metric) return m.value();
  return kNone;
}

}  // namespace

VerdictStop::VerdictStop(const v1::Plan& plan) : plan_(plan) {
  const auto& stop = plan.iteration_stop();
  active_ = stop.min() > 0 && plan.variants_size() >= 2;
  if (!active_) return;
  for (const auto& c : plan.cases()) {
    CaseState state;
    state.metric = c.gate().metric();
    state.rule.min_pairs = static_cast<int>(stop.min());
    state.rule.max_pairs = static_cast<int>(stop.max());
    state.rule.delta_pct =
        c.gate().threshold_pct() > 0 ? c.gate().threshold_pct() : stop.delta_pct();
    state.values.assign(static_cast<std::size_t>(plan.variants_size()),
                        std::vector<double>(stop.max(), kNone));
    cases_.push_back(std::move(state));
  }
}

bool VerdictStop::skips(const Slot& slot) const {
  return active_ && cases_[static_cast<std::size_t>(slot.case_index)].settled;
}

std::vector<std::string> VerdictStop::record(const Slot& slot, const v1::IterationResult& r) {
  if (!active_ || slot.iteration == 0 || slot.iteration > plan_.iteration_stop().max()) return {};
  CaseState& c = cases_[static_cast<std::size_t>(slot.case_index)];
  const double v = judged_value(r, c.metric);
  if (!(std::isfinite(v) && v > 0)) c.spoiled = true;
  c.values[static_cast<std::size_t>(slot.variant_index)][slot.iteration - 1] = v;
  for (const auto& per_variant : c.values)
    if (std::isnan(per_variant[slot.iteration - 1])) return {};  // the round is not done
  if (c.spoiled || c.settled || slot.iteration < plan_.iteration_stop().min()) return {};
  return look(c, slot.iteration);
}

std::vector<std::string> VerdictStop::look(CaseState& c, std::uint32_t round) {
  std::vector<std::string> verdicts;
  const std::span<const double> baseline(c.values[0].data(), round);
  for (std::size_t k = 1; k < c.values.size(); ++k) {
    const stats::SequentialLook l = stats::sequential_look(
        baseline, std::span<const double>(c.values[k].data(), round), c.rule);
    if (l.settled != stats::Settled::kEffect && l.settled != stats::Settled::kNoEffect) return {};
    verdicts.push_back(fmt::format("variant {}: {} {:+.1f}% [{:+.1f}, {:+.1f}] after {} rounds",
                                   plan_.variants(static_cast<int>(k)).name(),
                                   stats::settled_name(l.settled), l.change_pct, l.low_pct,
                                   l.high_pct, round));
  }
  c.settled = true;
  return verdicts;
}

}  // namespace schedrig::runner
