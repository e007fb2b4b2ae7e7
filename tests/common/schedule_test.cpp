// make_schedule (interleaved, blocked, shuffled) and splitmix64.
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "common/plan/schedule.h"

namespace schedrig {
namespace {

using Triple = std::tuple<int, int, std::uint32_t>;  // case, variant, iteration

v1::Plan plan(int cases, int variants, std::uint32_t iterations, v1::Order order,
              std::uint64_t seed = 1) {
  v1::Plan p;
  p.set_iterations(iterations);
  p.set_order(order);
  p.set_seed(seed);
  for (int c = 0; c < cases; ++c)
    p.add_cases()->set_name(std::string(1, 'c').append(std::to_string(c)));
  for (int v = 0; v < variants; ++v)
    p.add_variants()->set_name(std::string(1, 'v').append(std::to_string(v)));
  return p;
}

std::vector<Triple> triples(const std::vector<Slot>& slots) {
  std::vector<Triple> out;
  for (const auto& s : slots) out.emplace_back(s.case_index, s.variant_index, s.iteration);
  return out;
}

std::vector<std::pair<int, int>> pairs(const std::vector<Slot>& slots) {
  std::vector<std::pair<int, int>> out;
  for (const auto& s : slots) out.emplace_back(s.case_index, s.variant_index);
  return out;
}

// Every (case, variant, iteration) appears once, and within each (case,
// variant) the iterations run 1, 2, ..., n in schedule order.
void expect_complete(const std::vector<Slot>& slots, int cases, int variants,
                     std::uint32_t iterations) {
  ASSERT_EQ(slots.size(), static_cast<std::size_t>(cases) * variants * iterations);
  std::set<Triple> seen;
  std::map<std::pair<int, int>, std::uint32_t> last;
  for (const auto& s : slots) {
    EXPECT_GE(s.case_index, 0);
    EXPECT_LT(s.case_index, cases);
    EXPECT_GE(s.variant_index, 0);
    EXPECT_LT(s.variant_index, variants);
    EXPECT_TRUE(seen.emplace(s.case_index, s.variant_index, s.iteration).second)
        << "repeat of case " << s.case_index << " variant " << s.variant_index << " iteration "
        << s.iteration;
    std::uint32_t& prev = last[{s.case_index, s.variant_index}];
    EXPECT_EQ(s.iteration, prev + 1) << "case " << s.case_index << " variant " << s.variant_index;
    prev = s.iteration;
  }
  for (int c = 0; c < cases; ++c) {
    for (int v = 0; v < variants; ++v) EXPECT_EQ((last[{c, v}]), iterations);
  }
}

TEST(Schedule, InterleavedRotatesVariants) {
  auto slots = make_schedule(plan(1, 3, 3, v1::ORDER_INTERLEAVED));
  std::vector<Triple> want = {
      {0, 0, 1}, {0, 1, 1}, {0, 2, 1},  // round 1: v0 v1 v2
      {0, 1, 2}, {0, 2, 2}, {0, 0, 2},  // round 2: v1 v2 v0
      {0, 2, 3}, {0, 0, 3}, {0, 1, 3},  // round 3: v2 v0 v1
  };
  EXPECT_EQ(triples(slots), want);
  expect_complete(slots, 1, 3, 3);
}

TEST(Schedule, InterleavedRunsEveryCaseEachRound) {
  auto slots = make_schedule(plan(2, 2, 2, v1::ORDER_INTERLEAVED));
  std::vector<Triple> want = {
      {0, 0, 1}, {0, 1, 1}, {1, 0, 1}, {1, 1, 1},  // round 1
      {0, 1, 2}, {0, 0, 2}, {1, 1, 2}, {1, 0, 2},  // round 2
  };
  EXPECT_EQ(triples(slots), want);
  expect_complete(slots, 2, 2, 2);
}

TEST(Schedule, InterleavedNoVariantAlwaysFirst) {
  auto slots = make_schedule(plan(1, 4, 8, v1::ORDER_INTERLEAVED));
  expect_complete(slots, 1, 4, 8);
  std::map<int, int> firsts;
  for (std::size_t i = 0; i < slots.size(); i += 4) ++firsts[slots[i].variant_index];
  EXPECT_EQ(firsts, (std::map<int, int>{{0, 2}, {1, 2}, {2, 2}, {3, 2}}));
}

TEST(Schedule, SingleVariantIsPlainRepetition) {
  auto slots = make_schedule(plan(1, 1, 3, v1::ORDER_INTERLEAVED));
  EXPECT_EQ(triples(slots), (std::vector<Triple>{{0, 0, 1}, {0, 0, 2}, {0, 0, 3}}));
}

TEST(Schedule, Blocked) {
  auto slots = make_schedule(plan(2, 2, 2, v1::ORDER_BLOCKED));
  std::vector<Triple> want = {
      {0, 0, 1}, {0, 0, 2}, {0, 1, 1}, {0, 1, 2}, {1, 0, 1}, {1, 0, 2}, {1, 1, 1}, {1, 1, 2},
  };
  EXPECT_EQ(triples(slots), want);
  expect_complete(slots, 2, 2, 2);
}

TEST(Schedule, ShuffledIsCompleteAndRenumbered) {
  for (std::uint64_t seed : {0ULL, 1ULL, 2ULL, 42ULL, 0xFFFFFFFFFFFFFFFFULL}) {
    SCOPED_TRACE(seed);
    expect_complete(make_schedule(plan(3, 4, 5, v1::ORDER_SHUFFLED, seed)), 3, 4, 5);
  }
}

TEST(Schedule, ShuffledSameSeedSameOrder) {
  auto a = make_schedule(plan(3, 4, 5, v1::ORDER_SHUFFLED, 99));
  auto b = make_schedule(plan(3, 4, 5, v1::ORDER_SHUFFLED, 99));
  EXPECT_EQ(triples(a), triples(b));
}

TEST(Schedule, ShuffledDifferentSeedDifferentOrder) {
  auto a = pairs(make_schedule(plan(3, 4, 5, v1::ORDER_SHUFFLED, 1)));
  auto b = pairs(make_schedule(plan(3, 4, 5, v1::ORDER_SHUFFLED, 2)));
  auto c = pairs(make_schedule(plan(3, 4, 5, v1::ORDER_SHUFFLED, 3)));
  EXPECT_NE(a, b);
  EXPECT_NE(b, c);
  EXPECT_NE(a, c);
  // And it is not simply the blocked order.
  EXPECT_NE(a, pairs(make_schedule(plan(3, 4, 5, v1::ORDER_BLOCKED))));
}

TEST(Schedule, ShuffledOrderIsPinned) {
  // The same on every build: splitmix64 + our own Fisher-Yates over the
  // blocked order (computed independently from the algorithm's definition).
  auto slots = make_schedule(plan(2, 2, 2, v1::ORDER_SHUFFLED, 7));
  std::vector<Triple> want = {
      {0, 0, 1}, {1, 0, 1}, {1, 0, 2}, {0, 1, 1}, {1, 1, 1}, {0, 0, 2}, {0, 1, 2}, {1, 1, 2},
  };
  EXPECT_EQ(triples(slots), want);
}

TEST(Schedule, Splitmix64Seed0) {
  std::uint64_t state = 0;
  EXPECT_EQ(splitmix64(state), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(splitmix64(state), 0x6e789e6aa1b965f4ULL);
  EXPECT_EQ(splitmix64(state), 0x06c45d188009454fULL);
  EXPECT_EQ(state, 3 * 0x9E3779B97F4A7C15ULL);  // wraps mod 2^64
}

TEST(Schedule, Splitmix64Seed1234567) {
  std::uint64_t state = 1234567;
  EXPECT_EQ(splitmix64(state), 0x599ed017fb08fc85ULL);
}

// 1024 x 1024 x 100000 slots would be 10^11 Slot values (a bad_alloc on
// the agent): counted in 64 bits and refused before anything is built.
TEST(Schedule, AScheduleOverTheBoundIsRefusedNotBuilt) {
  const v1::Plan huge = plan(1024, 1024, 100000, v1::ORDER_SHUFFLED);
  EXPECT_EQ(schedule_slots(huge), 104'857'600'000ULL);
  EXPECT_EQ(schedule_size_problem(huge),
            "cases x variants x iterations = 1024 x 1024 x 100000 = 104857600000 slots; at most "
            "1000000");
  EXPECT_THROW(make_schedule(huge), std::length_error);
  const v1::Plan at_bound = plan(10, 10, 10000, v1::ORDER_BLOCKED);
  EXPECT_EQ(schedule_size_problem(at_bound), "");
  EXPECT_EQ(make_schedule(at_bound).size(), kMaxScheduleSlots);
  EXPECT_NE(schedule_size_problem(plan(10, 10, 10001, v1::ORDER_BLOCKED)), "");
  EXPECT_EQ(schedule_slots(plan(3, 0, 2, v1::ORDER_BLOCKED)), 6u) << "no variants run as one";
}

}  // namespace
}  // namespace schedrig
