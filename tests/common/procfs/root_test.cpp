// procfs::Root: live vs fake-tree path building, normalization, the --root
// spelling, and descriptions.
#include "common/procfs/root.h"

#include <unistd.h>

#include <filesystem>
#include <stdexcept>

#include <gtest/gtest.h>

namespace schedrig::procfs {
namespace {

namespace fs = std::filesystem;

TEST(ProcfsRoot, LiveBuildsTheKernelsOwnPaths) {
  const Root r = Root::live();
  EXPECT_TRUE(r.is_live());
  EXPECT_EQ(r.dir(), fs::path("/"));
  EXPECT_EQ(r.path("proc/stat"), fs::path("/proc/stat"));
  EXPECT_EQ(r.path("/proc/stat"), fs::path("/proc/stat"));
  EXPECT_EQ(r.path("sys/kernel/debug/sched/features"),
            fs::path("/sys/kernel/debug/sched/features"));
  EXPECT_EQ(r.path(""), fs::path("/"));
  EXPECT_EQ(r.flag_text(), "");
  EXPECT_EQ(r.describe(), "the live machine");
}

TEST(ProcfsRoot, UnderPrefixesEveryPathWithTheTree) {
  const Root r = Root::under("/tmp/fake");
  EXPECT_FALSE(r.is_live());
  EXPECT_EQ(r.dir(), fs::path("/tmp/fake"));
  EXPECT_EQ(r.path("proc/stat"), fs::path("/tmp/fake/proc/stat"));
  EXPECT_EQ(r.path("/proc/stat"), fs::path("/tmp/fake/proc/stat"));
  EXPECT_EQ(r.path("//proc/1/task/2/schedstat"), fs::path("/tmp/fake/proc/1/task/2/schedstat"));
  EXPECT_EQ(r.path(""), fs::path("/tmp/fake"));
  EXPECT_EQ(r.flag_text(), "/tmp/fake");
  EXPECT_EQ(r.describe(), "the fake tree under /tmp/fake");
}

TEST(ProcfsRoot, UnderNormalizesTheDirectory) {
  EXPECT_EQ(Root::under("/tmp/fake/"), Root::under("/tmp/fake"));
  EXPECT_EQ(Root::under("/tmp/fake/"), Root::under("/tmp/./other/../fake"));
  EXPECT_EQ(Root::under("/tmp/fake/").path("proc/stat"), fs::path("/tmp/fake/proc/stat"));
  EXPECT_NE(Root::under("/tmp/a"), Root::under("/tmp/b"));
}

TEST(ProcfsRoot, RelativeDirectoryBecomesAbsolute) {
  const Root r = Root::under("some/tree");
  EXPECT_TRUE(r.dir().is_absolute()) << r.dir();
  EXPECT_EQ(r.dir(), (fs::current_path() / "some/tree").lexically_normal());
  EXPECT_EQ(r.path("proc/stat"), r.dir() / "proc/stat");
}

TEST(ProcfsRoot, SlashIsTheLiveMachine) {
  EXPECT_TRUE(Root::under("/").is_live());
  EXPECT_TRUE(Root::under("//").is_live());
  EXPECT_EQ(Root::under("/"), Root::live());
  EXPECT_EQ(Root::under("/").flag_text(), "");
}

TEST(ProcfsRoot, EmptyDirectoryIsRefused) { EXPECT_THROW(Root::under(""), std::invalid_argument); }

TEST(ProcfsRoot, FlagTextRoundTrips) {
  EXPECT_EQ(Root::from_flag(""), Root::live());
  EXPECT_EQ(Root::from_flag("/tmp/fake"), Root::under("/tmp/fake"));
  for (const Root& r : {Root::live(), Root::under("/tmp/fake")}) {
    EXPECT_EQ(Root::from_flag(r.flag_text()), r) << r.describe();
  }
}

}  // namespace
}  // namespace schedrig::procfs
