#include "common/plan/schedule.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

namespace schedrig {
namespace {

std::vector<Slot> interleaved(int cases, int variants, std::uint32_t iterations) {
  std::vector<Slot> out;
  for (std::uint32_t round = 0; round < iterations; ++round) {
    for (int c = 0; c < cases; ++c) {
      for (int k = 0; k < variants; ++k) {
        out.push_back({c, static_cast<int>((k + round) % variants), round + 1});
      }
    }
  }
  return out;
}

std::vector<Slot> blocked(int cases, int variants, std::uint32_t iterations) {
  std::vector<Slot> out;
  for (int c = 0; c < cases; ++c) {
    for (int v = 0; v < variants; ++v) {
      for (std::uint32_t i = 1; i <= iterations; ++i) out.push_back({c, v, i});
    }
  }
  return out;
}

// Fisher-Yates with splitmix64, then iterations renumbered in run order.
void shuffle(std::vector<Slot>& slots, std::uint64_t seed) {
  std::uint64_t state = seed;
  for (std::size_t i = slots.size(); i > 1; --i) {
    std::size_t j = splitmix64(state) % i;
    std::swap(slots[i - 1], slots[j]);
  }
  std::map<std::pair<int, int>, std::uint32_t> next;
  for (auto& s : slots) s.iteration = ++next[{s.case_index, s.variant_index}];
}

}  // namespace

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

std::uint64_t schedule_slots(const v1::Plan& plan) {
  return static_cast<std::uint64_t>(plan.cases_size()) *
         static_cast<std::uint64_t>(std::max(1, plan.variants_size())) * plan.iterations();
}

std::string schedule_size_problem(const v1::Plan& plan) {
  const std::uint64_t slots = schedule_slots(plan);
  if (slots <= kMaxScheduleSlots) return "";
  return fmt::format("cases x variants x iterations = {} x {} x {} = {} slots; at most {}",
                     plan.cases_size(), std::max(1, plan.variants_size()), plan.iterations(), slots,
                     kMaxScheduleSlots);
}

std::vector<Slot> make_schedule(const v1::Plan& plan) {
  const std::string problem = schedule_size_problem(plan);
  if (!problem.empty()) throw std::length_error("schedule: " + problem);
  const int cases = plan.cases_size();
  const int variants = std::max(1, plan.variants_size());
  switch (plan.order()) {
    case v1::ORDER_BLOCKED:
      return blocked(cases, variants, plan.iterations());
    case v1::ORDER_SHUFFLED: {
      auto slots = blocked(cases, variants, plan.iterations());
      shuffle(slots, plan.seed());
      return slots;
    }
    default:
      return interleaved(cases, variants, plan.iterations());
  }
}

}  // namespace schedrig
