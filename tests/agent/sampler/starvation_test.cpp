// The starvation signature on synthetic sequences (seed 000: r=128 on a
// 96-PU box one second, r=0 and 85% idle the next; wait share 39-59%).
#include <gtest/gtest.h>

#include <vector>

#include "agent/sampler/starvation.h"

namespace schedrig::sampler {
namespace {

DerivedSample interval(std::uint32_t runnable, double idle,
                       std::optional<double> wait_share = std::nullopt) {
  DerivedSample s;
  s.runnable = runnable;
  s.idle_pct = idle;
  s.wait_share_pct = wait_share;
  return s;
}

// Feeds the sequence; returns which intervals were flagged.
std::vector<bool> run(std::vector<DerivedSample> seq, unsigned pus, StarvationThresholds t = {}) {
  StarvationDetector d(t, pus);
  std::vector<bool> out;
  for (auto& s : seq) {
    d.feed(s);
    out.push_back(s.starved);
    if (s.starved) {
      EXPECT_FALSE(s.starved_reason.empty());
    } else {
      EXPECT_TRUE(s.starved_reason.empty());
    }
  }
  return out;
}

TEST(Starvation, RuleASeed000Pattern) {
  // runnable counts the sampler itself: 129 = 128 others.
  StarvationDetector d({}, 96);
  DerivedSample crowd = interval(129, 5), idle = interval(1, 85);
  d.feed(crowd);
  d.feed(idle);
  EXPECT_FALSE(crowd.starved);
  EXPECT_TRUE(idle.starved);
  EXPECT_EQ(idle.starved_reason, "A: 128 runnable >= 96 allowed PUs, then 85% idle >= 50%");
}

TEST(Starvation, RuleAWithinLookahead) {
  EXPECT_EQ(run({interval(129, 5), interval(60, 20), interval(1, 85)}, 96),
            (std::vector<bool>{false, false, true}));
  // Three intervals later is outside the default lookahead of 2.
  EXPECT_EQ(run({interval(129, 5), interval(60, 20), interval(60, 20), interval(1, 85)}, 96),
            (std::vector<bool>{false, false, false, false}));
  StarvationThresholds longer;
  longer.lookahead = 3;
  EXPECT_EQ(
      run({interval(129, 5), interval(60, 20), interval(60, 20), interval(1, 85)}, 96, longer),
      (std::vector<bool>{false, false, false, true}));
}

TEST(Starvation, RuleAThresholdEdges) {
  // others == allowed PUs and idle == 50% both count (inclusive).
  EXPECT_EQ(run({interval(97, 0), interval(1, 50)}, 96), (std::vector<bool>{false, true}));
  // One runnable short of the PUs: no.
  EXPECT_EQ(run({interval(96, 0), interval(1, 90)}, 96), (std::vector<bool>{false, false}));
  // Idle just under the threshold: no.
  EXPECT_EQ(run({interval(200, 0), interval(1, 49.9)}, 96), (std::vector<bool>{false, false}));
  StarvationThresholds t;
  t.idle_after_pct = 80;
  EXPECT_EQ(run({interval(200, 0), interval(1, 79)}, 96, t), (std::vector<bool>{false, false}));
}

TEST(Starvation, RuleANotOnTheCrowdedIntervalItselfAndOncePerCrowd) {
  // A busy box that stays busy, or idle without a crowd before it: no.
  EXPECT_EQ(run({interval(200, 60), interval(200, 0), interval(200, 0)}, 96),
            (std::vector<bool>{false, false, false}));
  EXPECT_EQ(run({interval(1, 90), interval(1, 90)}, 96), (std::vector<bool>{false, false}));
  // One crowd, two idle intervals after it: flagged once.
  EXPECT_EQ(run({interval(129, 0), interval(1, 85), interval(1, 85)}, 96),
            (std::vector<bool>{false, true, false}));
  // The pattern repeating (the bimodal flip) is flagged each time.
  EXPECT_EQ(run({interval(129, 0), interval(1, 85), interval(129, 0), interval(1, 85)}, 96),
            (std::vector<bool>{false, true, false, true}));
}

TEST(Starvation, RuleAUsesAllowedPusNotMachine) {
  // A 2-PU cpuset on a big box: 3 others runnable is a crowd.
  EXPECT_EQ(run({interval(4, 0), interval(1, 60)}, 2), (std::vector<bool>{false, true}));
}

TEST(Starvation, RuleBWaitShareWhileIdle) {
  DerivedSample s = interval(3, 40, 45);
  StarvationDetector d({}, 96);
  d.feed(s);
  EXPECT_TRUE(s.starved);
  EXPECT_EQ(s.starved_reason, "B: workload wait share 45% >= 30% while 40% idle >= 30%");
}

TEST(Starvation, RuleBThresholdEdges) {
  EXPECT_EQ(run({interval(3, 30, 30)}, 96), (std::vector<bool>{true}));
  EXPECT_EQ(run({interval(3, 29.9, 59)}, 96),
            (std::vector<bool>{false}));  // box busy: real contention
  EXPECT_EQ(run({interval(3, 85, 29.9)}, 96), (std::vector<bool>{false}));
  EXPECT_EQ(run({interval(3, 85)}, 96), (std::vector<bool>{false}));  // no workload threads
  StarvationThresholds t;
  t.wait_share_pct = 50;
  t.idle_pct = 10;
  EXPECT_EQ(run({interval(3, 10, 50), interval(3, 90, 49)}, 96, t),
            (std::vector<bool>{true, false}));
}

TEST(Starvation, BothRulesInOneInterval) {
  StarvationDetector d({}, 96);
  DerivedSample crowd = interval(129, 0), idle = interval(1, 85, 50);
  d.feed(crowd);
  d.feed(idle);
  EXPECT_TRUE(idle.starved);
  EXPECT_NE(idle.starved_reason.find("A: "), std::string::npos);
  EXPECT_NE(idle.starved_reason.find("; B: "), std::string::npos);
}

TEST(Starvation, HealthySequence) {
  // Busy, steady, little waiting: never flagged.
  std::vector<DerivedSample> seq;
  for (int i = 0; i < 10; ++i) seq.push_back(interval(90, 8, 5));
  EXPECT_EQ(run(seq, 96), std::vector<bool>(10, false));
}

}  // namespace
}  // namespace schedrig::sampler
