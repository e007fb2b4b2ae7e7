// Hand-built /proc/schedstat for versions 15, 16 and 17, from the field
// lists of Documentation/scheduler/sched-stats.rst. Every field has a
// distinct value (cpu fields 101.., domain counters 1001..), so reading a
// field from the wrong position fails.
#include <iterator>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "agent/sampler/schedstat.h"

namespace schedrig::sampler {
namespace {

std::string numbers(int first, int count) {
  std::string out;
  // fmt rather than operator+: GCC 12 -O2 flags a false -Wrestrict on the latter.
  for (int i = 0; i < count; ++i) fmt::format_to(std::back_inserter(out), " {}", first + i);
  return out;
}

// version N, one CPU (cpu3) with one domain line of `counters` numbers.
std::string file(unsigned version, int counters, const std::string& domain_head,
                 int cpu_fields = 9) {
  return fmt::format("version {}\ntimestamp 4295000000\ncpu3{}\n{}{}\n", version,
                     numbers(101, cpu_fields), domain_head, numbers(1001, counters));
}

void expect_cpu(const CpuSchedstat& c) {
  EXPECT_EQ(c.yld_count, 101u);
  EXPECT_EQ(c.sched_count, 103u);
  EXPECT_EQ(c.sched_goidle, 104u);
  EXPECT_EQ(c.ttwu_count, 105u);
  EXPECT_EQ(c.ttwu_local, 106u);
  EXPECT_EQ(c.run_time_ns, 107u);
  EXPECT_EQ(c.run_delay_ns, 108u);
  EXPECT_EQ(c.timeslices, 109u);
}

// The 8-field block of v15/v16 starting at `first`.
void expect_block8(const LbStats& s, std::uint64_t first) {
  EXPECT_EQ(s.lb_count, first);
  EXPECT_EQ(s.lb_balanced, first + 1);
  EXPECT_EQ(s.lb_failed, first + 2);
  EXPECT_EQ(s.lb_imbalance, first + 3);
  EXPECT_EQ(s.lb_gained, first + 4);
  EXPECT_EQ(s.lb_hot_gained, first + 5);
  EXPECT_EQ(s.lb_nobusyq, first + 6);
  EXPECT_EQ(s.lb_nobusyg, first + 7);
}

// The 11-field block of v17 starting at `first`.
void expect_block11(const LbStats& s, std::uint64_t first) {
  EXPECT_EQ(s.lb_count, first);
  EXPECT_EQ(s.lb_balanced, first + 1);
  EXPECT_EQ(s.lb_failed, first + 2);
  EXPECT_EQ(s.imbalance_load, first + 3);
  EXPECT_EQ(s.imbalance_util, first + 4);
  EXPECT_EQ(s.imbalance_task, first + 5);
  EXPECT_EQ(s.imbalance_misfit, first + 6);
  EXPECT_EQ(s.lb_gained, first + 7);
  EXPECT_EQ(s.lb_hot_gained, first + 8);
  EXPECT_EQ(s.lb_nobusyq, first + 9);
  EXPECT_EQ(s.lb_nobusyg, first + 10);
  EXPECT_EQ(s.lb_imbalance, 0u);
}

// The 12 trailing alb/sbe/sbf/ttwu counters starting at `first`.
void expect_tail(const DomainStats& d, std::uint64_t first) {
  EXPECT_EQ(d.alb_count, first);
  EXPECT_EQ(d.alb_failed, first + 1);
  EXPECT_EQ(d.alb_pushed, first + 2);
  EXPECT_EQ(d.ttwu_wake_remote, first + 9);
  EXPECT_EQ(d.ttwu_move_affine, first + 10);
  EXPECT_EQ(d.ttwu_move_balance, first + 11);
}

TEST(SchedstatVersions, V15IdleBusyNewlyIdle) {
  const Schedstat s = parse_schedstat(file(15, 36, "domain0 0f"));
  EXPECT_EQ(s.version, 15u);
  EXPECT_EQ(s.timestamp, 4295000000u);
  const CpuSchedstat& c = s.cpus.at(3);
  expect_cpu(c);
  const DomainStats& d = c.domains.at(0);
  EXPECT_EQ(d.level, 0);
  EXPECT_EQ(d.name, "");
  EXPECT_EQ(d.cpumask, "0f");
  expect_block8(d.lb[kIdle], 1001);
  expect_block8(d.lb[kBusy], 1009);
  expect_block8(d.lb[kNewlyIdle], 1017);
  expect_tail(d, 1025);
}

TEST(SchedstatVersions, V16BusyIdleNewlyIdle) {
  const Schedstat s = parse_schedstat(file(16, 36, "domain1 0f"));
  const DomainStats& d = s.cpus.at(3).domains.at(0);
  expect_cpu(s.cpus.at(3));
  EXPECT_EQ(d.level, 1);
  expect_block8(d.lb[kBusy], 1001);
  expect_block8(d.lb[kIdle], 1009);
  expect_block8(d.lb[kNewlyIdle], 1017);
  expect_tail(d, 1025);
}

TEST(SchedstatVersions, V17NameAndImbalanceKinds) {
  const Schedstat s = parse_schedstat(file(17, 45, "domain0 MC 0f"));
  const DomainStats& d = s.cpus.at(3).domains.at(0);
  expect_cpu(s.cpus.at(3));
  EXPECT_EQ(d.name, "MC");
  EXPECT_EQ(d.cpumask, "0f");
  expect_block11(d.lb[kBusy], 1001);
  expect_block11(d.lb[kIdle], 1012);
  expect_block11(d.lb[kNewlyIdle], 1023);
  expect_tail(d, 1034);
}

TEST(SchedstatVersions, V17WithoutNameByFieldCount) {
  const Schedstat s = parse_schedstat(file(17, 45, "domain0 0f"));
  const DomainStats& d = s.cpus.at(3).domains.at(0);
  EXPECT_EQ(d.name, "");
  EXPECT_EQ(d.cpumask, "0f");
  expect_block11(d.lb[kNewlyIdle], 1023);
}

TEST(SchedstatVersions, UnknownVersionIsReportedNotGuessed) {
  try {
    parse_schedstat(file(18, 45, "domain0 MC 0f"));
    FAIL() << "version 18 parsed";
  } catch (const SchedstatError& e) {
    EXPECT_STREQ(e.what(), "unknown schedstat version 18");
  }
  EXPECT_FALSE(schedstat_version_supported(18));
  EXPECT_FALSE(schedstat_version_supported(13));
  EXPECT_TRUE(schedstat_version_supported(17));
}

TEST(SchedstatVersions, OutOfTreeLayoutWithSameNumberIsAnError) {
  // Mel Gorman's SIS patches print "version 17" with 15 cpu numbers.
  try {
    parse_schedstat(file(17, 45, "domain0 MC 0f", 15));
    FAIL() << "15 cpu fields accepted";
  } catch (const SchedstatError& e) {
    EXPECT_NE(std::string(e.what()).find("cpu3 has 15 fields, expected 9"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(parse_schedstat(file(16, 45, "domain0 0f")), SchedstatError);
  EXPECT_THROW(parse_schedstat(file(17, 36, "domain0 MC 0f")), SchedstatError);
}

TEST(SchedstatVersions, MalformedFiles) {
  EXPECT_THROW(parse_schedstat("cpu0 1 2 3\n"), SchedstatError);
  EXPECT_THROW(parse_schedstat(fmt::format("version 15\ndomain0 0f{}\n", numbers(1, 36))),
               SchedstatError);
  EXPECT_THROW(parse_schedstat(fmt::format("version 15\ncpu0{} x\n", numbers(1, 8))),
               SchedstatError);
}

}  // namespace
}  // namespace schedrig::sampler
