// procfs::TaskId paths and the per-thread schedstat parse.
#include "common/procfs/task_schedstat.h"

#include <unistd.h>

#include <gtest/gtest.h>

#include "common/procfs/read_file.h"

namespace schedrig::procfs {
namespace {

TEST(ProcfsTaskSchedstat, PathUnderEachRoot) {
  const TaskId t{123, 456};
  EXPECT_EQ(task_schedstat_path(Root::live(), t), "/proc/123/task/456/schedstat");
  EXPECT_EQ(task_schedstat_path(Root::under("/tmp/fake"), t),
            "/tmp/fake/proc/123/task/456/schedstat");
}

TEST(ProcfsTaskSchedstat, ParsesThreeNumbersOnTheFirstLine) {
  const auto t = parse_task_schedstat("411605849 93680043 79\n");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->run_ns, 411605849u);
  EXPECT_EQ(t->wait_ns, 93680043u);
  EXPECT_EQ(t->timeslices, 79u);
  const auto tabs = parse_task_schedstat(" 1\t2  3 \nignored line\n");
  ASSERT_TRUE(tabs);
  EXPECT_EQ(tabs->run_ns, 1u);
  EXPECT_EQ(tabs->wait_ns, 2u);
  EXPECT_EQ(tabs->timeslices, 3u);
  EXPECT_EQ(parse_task_schedstat("18446744073709551615 0 1")->run_ns, 18446744073709551615u);
}

TEST(ProcfsTaskSchedstat, RejectsAnythingElse) {
  for (const char* bad : {"", "\n", "1 2\n", "1 2 3 4\n", "1 x 3\n", "-1 2 3\n", "1 2 3x\n",
                          "18446744073709551616 0 1\n", "\n1 2 3\n"}) {
    EXPECT_FALSE(parse_task_schedstat(bad)) << "'" << bad << "'";
  }
}

TEST(ProcfsTaskSchedstat, ThisThreadOnTheLiveMachine) {
  const TaskId self{::getpid(), ::gettid()};
  const auto text = try_read_small_file(task_schedstat_path(Root::live(), self));
  if (!text) GTEST_SKIP() << "no per-thread schedstat (CONFIG_SCHED_INFO off?)";
  const auto t = parse_task_schedstat(*text);
  ASSERT_TRUE(t) << *text;
  EXPECT_GE(t->timeslices, 1u);
}

}  // namespace
}  // namespace schedrig::procfs
