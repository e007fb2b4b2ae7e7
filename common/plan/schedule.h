// The order a plan's iterations run in (docs/architecture.md "Plans, variants,
// iterations"): interleaved rounds with the variant order rotating,
// blocked, or shuffled with splitmix64 + Fisher-Yates (same on every build).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "schedrig/v1/plan.pb.h"

namespace schedrig {

// One (case, variant, iteration) of a run.
struct Slot {
  int case_index = 0;           // into plan.cases
  int variant_index = 0;        // into plan.variants
  std::uint32_t iteration = 0;  // 1-based within (case, variant), in run order
};

// At most this many slots (cases x variants x iterations) in one plan: the
// plan parser refuses more, the agent never builds a longer schedule.
inline constexpr std::uint64_t kMaxScheduleSlots = 1'000'000;

// cases x variants x iterations of `plan` (no variants count as one), in 64 bits.
std::uint64_t schedule_slots(const schedrig::v1::Plan& plan);

// "" when `plan` is within kMaxScheduleSlots, else why not: "cases x
// variants x iterations = 1024 x 1024 x 100000 = 104857600000 slots; at most
// 1000000".
std::string schedule_size_problem(const schedrig::v1::Plan& plan);

// Every slot of the plan, in run order: cases x variants x iterations long.
// Throws std::length_error (schedule_size_problem) over kMaxScheduleSlots.
std::vector<Slot> make_schedule(const schedrig::v1::Plan& plan);

// splitmix64 step: advances `state` and returns the next 64-bit output
// (Steele, Lea, Flood 2014; the generator java.util.SplittableRandom uses).
std::uint64_t splitmix64(std::uint64_t& state);

}  // namespace schedrig
