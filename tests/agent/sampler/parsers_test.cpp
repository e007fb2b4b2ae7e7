// Parsers against real files from ../shared/fixtures/procfs and /schedstat.
#include <gtest/gtest.h>

#include "agent/sampler/loadavg.h"
#include "agent/sampler/pressure.h"
#include "agent/sampler/proc_stat.h"
#include "agent/sampler/sampler_error.h"
#include "agent/sampler/schedstat.h"
#include "agent/sampler/vmstat.h"
#include "common/procfs/task_schedstat.h"
#include "tests/support/fixtures.h"

namespace schedrig::sampler {
namespace {

constexpr std::uint64_t kTick = 10'000'000;  // ns per USER_HZ tick at 100

TEST(ProcStat, DevVmTwoCpus) {
  SCHEDRIG_FIXTURE(text, "procfs/proc_stat.txt");
  const ProcStat s = parse_proc_stat(text, 100);
  ASSERT_EQ(s.cpus.size(), 2u);
  EXPECT_EQ(s.cpus.at(0).user, 3958 * kTick);
  EXPECT_EQ(s.cpus.at(0).system, 3613 * kTick);
  EXPECT_EQ(s.cpus.at(0).idle, 46700 * kTick);
  EXPECT_EQ(s.cpus.at(0).iowait, 68 * kTick);
  EXPECT_EQ(s.cpus.at(1).softirq, 79 * kTick);
  EXPECT_EQ(s.cpus.at(1).steal, 24 * kTick);
  EXPECT_EQ(s.ctxt, 2307244u);
  EXPECT_EQ(s.intr, 630698u);
  EXPECT_EQ(s.processes, 34882u);
  EXPECT_EQ(s.procs_running, 1u);
  EXPECT_EQ(s.procs_blocked, 0u);
}

TEST(ProcStat, Kunpeng128Cpus) {
  SCHEDRIG_FIXTURE(text, "procfs/kunpeng920_128cpu_kernel5.15rc1_proc_stat.txt");
  ASSERT_GT(text.size(), 4096u);  // larger than one page
  const ProcStat s = parse_proc_stat(text, 100);
  ASSERT_EQ(s.cpus.size(), 128u);
  EXPECT_EQ(s.cpus.begin()->first, 0);
  EXPECT_EQ(s.cpus.rbegin()->first, 127);
  EXPECT_EQ(s.cpus.at(75).user, 15460 * kTick);
  EXPECT_EQ(s.ctxt, 2798327u);
  EXPECT_EQ(s.intr, 1765717u);
  EXPECT_EQ(s.processes, 5216u);
  EXPECT_EQ(s.procs_running, 49u);
}

TEST(ProcStat, NodeExporterGuestColumnsNotSteal) {
  SCHEDRIG_FIXTURE(text, "procfs/node_exporter_stat.txt");
  const ProcStat s = parse_proc_stat(text, 100);
  ASSERT_EQ(s.cpus.size(), 8u);
  EXPECT_EQ(s.cpus.at(7).steal, 0u);  // "... 31 0 9 8": 9 and 8 are guest, guest_nice
  EXPECT_EQ(s.cpus.at(0).softirq, 3410 * kTick);
  EXPECT_EQ(s.ctxt, 38014093u);
  EXPECT_EQ(s.intr, 8885917u);
  EXPECT_EQ(s.procs_running, 2u);
}

TEST(ProcStat, TicksConvertWithUserHz) {
  const ProcStat s = parse_proc_stat("cpu0 250 0 0 0 0 0 0 0 0 0\nctxt 1\n", 250);
  EXPECT_EQ(s.cpus.at(0).user, 1'000'000'000u);
}

TEST(ProcStat, NotAStatFileThrows) {
  EXPECT_THROW(parse_proc_stat("some avg10=0.00\n", 100), SamplerError);
  EXPECT_THROW(parse_proc_stat("cpu0 1 2 x 4\nctxt 1\n", 100), SamplerError);
}

TEST(Vmstat, OldAndNewKernels) {
  SCHEDRIG_FIXTURE(old_text, "procfs/node_exporter_vmstat.txt");
  SCHEDRIG_FIXTURE(new_text, "procfs/proc_vmstat.txt");
  const Vmstat a = parse_vmstat(old_text);
  EXPECT_EQ(a.numa_hit, 2601972389u);
  EXPECT_EQ(a.numa_miss, 0u);
  EXPECT_EQ(a.numa_pages_migrated, 0u);
  EXPECT_EQ(a.pgmigrate_success, 37070309u);
  const Vmstat b = parse_vmstat(new_text);
  EXPECT_EQ(b.numa_hit, 4439243u);
  EXPECT_EQ(b.numa_local, 4439243u);
  EXPECT_EQ(b.numa_other, 0u);
}

TEST(Vmstat, AbsentKeysStayAbsent) {
  const Vmstat v = parse_vmstat("nr_free_pages 1\npgmigrate_success 7\n");
  EXPECT_FALSE(v.numa_hit);
  EXPECT_FALSE(v.numa_miss);
  EXPECT_EQ(v.pgmigrate_success, 7u);
}

TEST(Pressure, SomeAndFull) {
  SCHEDRIG_FIXTURE(text, "procfs/proc_pressure_cpu.txt");
  const Pressure p = parse_pressure(text);
  ASSERT_TRUE(p.some);
  ASSERT_TRUE(p.full);
  EXPECT_DOUBLE_EQ(p.some->avg60, 0.13);
  EXPECT_DOUBLE_EQ(p.some->avg300, 1.95);
  EXPECT_EQ(p.some->total_us, 23455361u);
  EXPECT_EQ(p.full->total_us, 0u);
}

TEST(Pressure, OlderKernelSomeOnly) {
  SCHEDRIG_FIXTURE(text, "procfs/procfs_pressure_cpu.txt");
  const Pressure p = parse_pressure(text);
  ASSERT_TRUE(p.some);
  EXPECT_FALSE(p.full);
  EXPECT_DOUBLE_EQ(p.some->avg10, 0.10);
  EXPECT_DOUBLE_EQ(p.some->avg60, 2.00);
  EXPECT_EQ(p.some->total_us, 15u);
}

TEST(Pressure, MalformedThrows) {
  EXPECT_THROW(parse_pressure("some avg10=x avg60=0 avg300=0 total=1\n"), SamplerError);
  EXPECT_THROW(parse_pressure(""), SamplerError);
}

TEST(Loadavg, Parses) {
  const Loadavg l = parse_loadavg("0.20 0.18 0.12 1/80 11206\n");
  EXPECT_DOUBLE_EQ(l.load1, 0.20);
  EXPECT_DOUBLE_EQ(l.load15, 0.12);
  EXPECT_EQ(l.running, 1u);
  EXPECT_EQ(l.total, 80u);
  EXPECT_EQ(l.last_pid, 11206);
  EXPECT_THROW(parse_loadavg("0.20 0.18\n"), SamplerError);
}

TEST(TaskSchedstat, RealFiles) {
  SCHEDRIG_FIXTURE(vim, "procfs/procfs_26231_schedstat.txt");
  SCHEDRIG_FIXTURE(self, "procfs/proc_self_schedstat.txt");
  const auto t = procfs::parse_task_schedstat(vim);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->run_ns, 411605849u);
  EXPECT_EQ(t->wait_ns, 93680043u);
  EXPECT_EQ(t->timeslices, 79u);
  const auto fresh = procfs::parse_task_schedstat(self);
  ASSERT_TRUE(fresh);
  EXPECT_EQ(fresh->run_ns, 0u);
  EXPECT_EQ(fresh->timeslices, 1u);
  EXPECT_FALSE(procfs::parse_task_schedstat("1 2\n"));
}

TEST(Schedstat, V15Intel8CpuNonZeroDomains) {
  SCHEDRIG_FIXTURE(text, "schedstat/schedstat_v15_intel-i7-4770_8cpu_nonzero-domains.txt");
  const Schedstat s = parse_schedstat(text);
  EXPECT_EQ(s.version, 15u);
  EXPECT_EQ(s.timestamp, 4643086408u);
  ASSERT_EQ(s.cpus.size(), 8u);
  const CpuSchedstat& c0 = s.cpus.at(0);
  EXPECT_EQ(c0.yld_count, 100575u);
  EXPECT_EQ(c0.sched_count, 7592514u);
  EXPECT_EQ(c0.sched_goidle, 3450357u);
  EXPECT_EQ(c0.ttwu_count, 4711499u);
  EXPECT_EQ(c0.ttwu_local, 2594025u);
  EXPECT_EQ(c0.run_time_ns, 381578020671u);
  EXPECT_EQ(c0.run_delay_ns, 11992929013u);
  EXPECT_EQ(c0.timeslices, 3887207u);
  ASSERT_EQ(c0.domains.size(), 2u);
  const DomainStats& d0 = c0.domains[0];
  EXPECT_EQ(d0.cpumask, "11");
  EXPECT_EQ(d0.lb[kIdle].lb_count, 1238788u);  // v15: idle block first
  EXPECT_EQ(d0.lb[kBusy].lb_count, 35713u);
  EXPECT_EQ(d0.lb[kNewlyIdle].lb_count, 127610u);
  EXPECT_EQ(d0.lb[kNewlyIdle].lb_failed, 1329u);
  EXPECT_EQ(d0.lb[kNewlyIdle].lb_imbalance, 76528u);
  EXPECT_EQ(d0.lb[kNewlyIdle].lb_gained, 100u);
  EXPECT_EQ(d0.lb[kNewlyIdle].lb_nobusyq, 304u);
  EXPECT_EQ(d0.lb[kNewlyIdle].lb_nobusyg, 125884u);
  EXPECT_EQ(d0.alb_count, 1u);
  EXPECT_EQ(d0.ttwu_wake_remote, 133309u);
  EXPECT_EQ(d0.ttwu_move_affine, 69229u);
  const DomainStats& d71 = s.cpus.at(7).domains[1];
  EXPECT_EQ(d71.cpumask, "ff");
  EXPECT_EQ(d71.lb[kNewlyIdle].lb_count, 36276u);
  EXPECT_EQ(d71.lb[kNewlyIdle].lb_failed, 8728u);
  EXPECT_EQ(d71.ttwu_wake_remote, 286172u);
}

TEST(Schedstat, V15TwoCpusWideMask) {
  SCHEDRIG_FIXTURE(text, "schedstat/schedstat_v15_2cpu_prometheus-procfs.txt");
  const Schedstat s = parse_schedstat(text);
  ASSERT_EQ(s.cpus.size(), 2u);
  EXPECT_EQ(s.cpus.at(1).run_delay_ns, 364107263788241u);
  EXPECT_EQ(s.cpus.at(1).timeslices, 5145567945u);
  EXPECT_EQ(s.cpus.at(0).domains.at(0).cpumask, "00000000,00000003");
  EXPECT_EQ(s.cpus.at(0).domains.at(0).lb[kNewlyIdle].lb_count, 2122447165u);
}

TEST(Schedstat, V15Excerpt128CpusThreeDomains) {
  SCHEDRIG_FIXTURE(text, "schedstat/schedstat_v15_128cpu_3domains_EXCERPT-cpu0-cpu127.txt");
  const Schedstat s = parse_schedstat(text);
  ASSERT_EQ(s.cpus.size(), 2u);
  ASSERT_TRUE(s.cpus.count(127));
  EXPECT_EQ(s.cpus.at(0).run_time_ns, 1400897766846392u);
  ASSERT_EQ(s.cpus.at(127).domains.size(), 3u);
  EXPECT_EQ(s.cpus.at(127).domains[2].level, 2);
  EXPECT_EQ(s.cpus.at(127).domains[2].cpumask, "ffffffff,ffffffff,ffffffff,ffffffff");
}

TEST(Schedstat, V15CountersOffStillHasSchedInfo) {
  SCHEDRIG_FIXTURE(text, "schedstat/schedstat_v15_6cpu_single-domain_schedstats-off.txt");
  const Schedstat s = parse_schedstat(text);
  ASSERT_EQ(s.cpus.size(), 6u);
  EXPECT_EQ(s.cpus.at(5).run_delay_ns, 42862371788u);
  EXPECT_EQ(s.cpus.at(5).sched_count, 0u);
  EXPECT_EQ(s.cpus.at(5).domains.at(0).cpumask, "3f");
  EXPECT_EQ(s.cpus.at(5).domains.at(0).lb[kNewlyIdle].lb_count, 0u);
}

TEST(Schedstat, V14IsSupported) {
  SCHEDRIG_FIXTURE(text, "schedstat/schedstat_v14_intel-i7-4650U_1cpu.txt");
  const Schedstat s = parse_schedstat(text);
  EXPECT_EQ(s.version, 14u);
  const CpuSchedstat& c = s.cpus.at(0);
  EXPECT_EQ(c.sched_count, 68408u);  // after the 3 yld_*_empty and yld_count, legacy
  EXPECT_EQ(c.sched_goidle, 17522u);
  EXPECT_EQ(c.ttwu_count, 36155u);
  EXPECT_EQ(c.run_time_ns, 12361072639u);
  EXPECT_EQ(c.run_delay_ns, 58502703487u);
  EXPECT_EQ(c.timeslices, 50886u);
  const DomainStats& d = c.domains.at(0);
  EXPECT_EQ(d.cpumask, "00000000,00000000,00000000,00000000,00000000,00000000,00000000,00000001");
  EXPECT_EQ(d.lb[kIdle].lb_count, 261399u);
  EXPECT_EQ(d.lb[kBusy].lb_count, 40u);
  EXPECT_EQ(d.lb[kNewlyIdle].lb_count, 17522u);
  EXPECT_EQ(d.ttwu_move_affine, 15179u);
}

}  // namespace
}  // namespace schedrig::sampler
