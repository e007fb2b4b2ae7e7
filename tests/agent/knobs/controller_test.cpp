// KnobController on a fake root: journal before write, verify, restore,
// crash safety (SIGKILL, then a fresh start restores), boot scoping, the
// per-root lock and path-escape refusals.
#include "agent/knobs/knob_controller.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "agent/knobs/journal.h"
#include "tests/agent/knobs/fake_root.h"
#include "tests/support/flock_holder.h"

namespace schedrig::knobs {
namespace {

using testing::FakeRoot;
using namespace std::chrono_literals;

const std::string kAutogroup = "proc/sys/kernel/sched_autogroup_enabled";
const std::string kMigration = "sys/kernel/debug/sched/migration_cost_ns";

std::vector<KnobSetting> variant(const std::string& autogroup, const std::string& migration) {
  return {{KnobKind::kSysctl, "kernel.sched_autogroup_enabled", autogroup},
          {KnobKind::kDebugfs, "sched/migration_cost_ns", migration}};
}

TEST(KnobController, AppliesVerifiesAndRestores) {
  FakeRoot root;
  {
    KnobController k(root.root(), root.state_dir());
    k.apply(variant("0", "100000"));
    EXPECT_EQ(root.get(kAutogroup), "0");
    EXPECT_EQ(root.get(kMigration), "100000");
    auto now = k.current(variant("", ""));
    EXPECT_EQ(now.at("kernel.sched_autogroup_enabled"), "0");
    // The baseline variant: "" puts each knob back to its original.
    k.apply(variant("", ""));
    EXPECT_EQ(root.get(kAutogroup), "1");
    EXPECT_EQ(root.get(kMigration), "500000");
    k.apply(variant("0", ""));
    k.restore();
    EXPECT_FALSE(std::filesystem::exists(k.journal_file()));
  }
  EXPECT_EQ(root.get(kAutogroup), "1");
  EXPECT_EQ(root.get(kMigration), "500000");
}

TEST(KnobController, JournalHoldsOriginalsBeforeTheFirstWrite) {
  FakeRoot root;
  KnobController k(root.root(), root.state_dir());
  k.apply(variant("0", "42"));
  auto j = read_journal(k.journal_file());
  ASSERT_TRUE(j);
  EXPECT_EQ(j->boot_id, "11111111-2222-4333-8444-555555555555");
  EXPECT_EQ(j->root, root.root());
  ASSERT_EQ(j->entries.size(), 2u);
  EXPECT_EQ(j->entries[0].original.name, "kernel.sched_autogroup_enabled");
  EXPECT_EQ(j->entries[0].original.value, "1");
  EXPECT_EQ(j->entries[1].original.value, "500000");
  EXPECT_EQ(j->entries[1].path, root.path(kMigration));
}

TEST(KnobController, DestructorRestoresOnAnException) {
  FakeRoot root;
  try {
    KnobController k(root.root(), root.state_dir());
    k.apply(variant("0", "7"));
    throw std::runtime_error("workload blew up");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(root.get(kAutogroup), "1");
  EXPECT_EQ(root.get(kMigration), "500000");
}

TEST(KnobController, AWriteThatDoesNotStickIsAnError) {
  FakeRoot root;
  // A directory where the file should be: open(O_WRONLY) fails with EISDIR.
  std::filesystem::remove(root.path(kMigration));
  std::filesystem::create_directories(root.path(kMigration));
  KnobController k(root.root(), root.state_dir());
  EXPECT_THROW(k.apply(variant("1", "100")), KnobUnavailable);
}

TEST(KnobController, CheckNamesKnobPathAndErrno) {
  FakeRoot root;  // no features file
  KnobController k(root.root(), root.state_dir());
  try {
    k.check({{KnobKind::kFeature, "NI_RANDOM", "off"}});
    FAIL() << "expected KnobUnavailable";
  } catch (const KnobUnavailable& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("NO_NI_RANDOM"), std::string::npos) << msg;
    EXPECT_NE(msg.find(root.path("sys/kernel/debug/sched/features")), std::string::npos) << msg;
    EXPECT_NE(msg.find("ENOENT"), std::string::npos) << msg;
  }
  EXPECT_NO_THROW(k.check(variant("0", "1")));
  EXPECT_FALSE(std::filesystem::exists(k.journal_file()));  // check writes nothing
}

TEST(KnobController, SymlinkOutOfTheRootIsRefused) {
  FakeRoot root;
  schedrig::testing::TempDir outside;
  std::ofstream(outside.file("victim")) << "1\n";
  std::filesystem::remove(root.path(kAutogroup));
  std::filesystem::create_symlink(outside.file("victim"), root.path(kAutogroup));
  KnobController k(root.root(), root.state_dir());
  try {
    k.apply(variant("0", ""));
    FAIL() << "expected KnobError";
  } catch (const KnobError& e) {
    EXPECT_NE(std::string(e.what()).find("resolves outside"), std::string::npos) << e.what();
  }
  std::ifstream in(outside.file("victim"));
  std::string v;
  in >> v;
  EXPECT_EQ(v, "1");
}

TEST(KnobController, JournalFromAnotherBootIsDiscardedNotApplied) {
  FakeRoot root;
  root.set_boot_id("aaaaaaaa-0000-4000-8000-000000000000");
  {
    KnobController k(root.root(), root.state_dir());
    k.apply(variant("0", "9"));
    k.keep_journal();  // as if the agent died: journal left behind
  }
  root.set_boot_id("bbbbbbbb-0000-4000-8000-000000000000");  // "reboot"
  root.put(kAutogroup, "0\n");  // whatever the new boot has is left alone
  KnobController fresh(root.root(), root.state_dir());
  EXPECT_TRUE(fresh.recover().empty());
  EXPECT_EQ(root.get(kAutogroup), "0");
  EXPECT_FALSE(std::filesystem::exists(fresh.journal_file()));
}

// A child applies a variant and is SIGKILLed; a fresh controller's recover()
// (what every agent start does) restores the originals. Returns true when
// the tree is back as found.
bool kill9_trial(const FakeRoot& root, int delay_us) {
  int pipefd[2];
  if (::pipe(pipefd) != 0) return false;
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(pipefd[0]);
    KnobController k(root.root(), root.state_dir());
    k.apply(variant("0", "123"));
    (void)!::write(pipefd[1], "x", 1);
    for (;;) {
      k.apply(variant(delay_us % 2 ? "1" : "0", delay_us % 3 ? "777" : ""));
      ::usleep(100);
    }
  }
  ::close(pipefd[1]);
  char c;
  bool applied = ::read(pipefd[0], &c, 1) == 1;
  ::close(pipefd[0]);
  ::usleep(delay_us);
  ::kill(pid, SIGKILL);
  int st = 0;
  ::waitpid(pid, &st, 0);
  KnobController fresh(root.root(), root.state_dir());
  fresh.recover();
  return applied && root.get(kAutogroup) == "1" && root.get(kMigration) == "500000" &&
         !std::filesystem::exists(fresh.journal_file());
}

TEST(KnobController, SigkillThenRestartRestores100Times) {
  FakeRoot root;
  int restored = 0;
  for (int i = 0; i < 100; ++i) restored += kill9_trial(root, (i * 37) % 2000);
  RecordProperty("kill9_trials_restored", restored);
  std::cout << "kill -9 trials restored: " << restored << " of 100\n";
  EXPECT_EQ(restored, 100);
}

TEST(KnobController, SecondWriterWaitsForTheLockThenFails) {
  FakeRoot root;
  KnobController a(root.root(), root.state_dir());
  a.apply(variant("0", ""));
  try {
    KnobLock b(root.root(), 100ms);
    FAIL() << "expected the lock to be held";
  } catch (const KnobError& e) {
    EXPECT_NE(std::string(e.what()).find(std::to_string(::getpid())), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("run/schedrig/knobs.lock"), std::string::npos) << e.what();
  }
  a.restore();
  EXPECT_NO_THROW(KnobLock(root.root(), 100ms));
}

// A wait for the lock is told as it starts (the holder's pid) and as it
// ends (how long it took); a lock free at once is told nothing.
TEST(KnobController, AWaitForTheLockIsToldAsItStartsAndEnds) {
  FakeRoot root;
  std::vector<LockWait> told;
  EXPECT_NO_THROW(KnobLock(root.root(), 100ms, [&](const LockWait& w) { told.push_back(w); }));
  EXPECT_TRUE(told.empty());
  auto holder = std::make_unique<KnobLock>(root.root(), 100ms);
  std::thread release([&] {
    std::this_thread::sleep_for(300ms);
    holder.reset();
  });
  KnobController b(root.root(), root.state_dir());
  b.set_lock_wait_observer([&](const LockWait& w) { told.push_back(w); });
  b.apply(variant("0", ""));  // waits for the holder, then takes the lock
  release.join();
  ASSERT_EQ(told.size(), 2u);
  EXPECT_FALSE(told[0].taken);
  EXPECT_EQ(told[0].holder, std::to_string(::getpid()));
  EXPECT_NE(told[0].path.find("run/schedrig/knobs.lock"), std::string::npos) << told[0].path;
  EXPECT_EQ(told[0].limit, kLockWait);
  EXPECT_TRUE(told[1].taken);
  EXPECT_GE(told[1].waited, 250ms);
  EXPECT_LT(told[1].waited, 5s);
  b.restore();
}

// Another process's hold on the lock, writing a false pid into the file.
class ForeignHolder : public schedrig::testing::FlockHolder {
 public:
  explicit ForeignHolder(const std::string& path) : FlockHolder(path, "111111    \n") {}
};

// The holder told and named in the failure is the process the kernel says
// holds the lock, never the pid the lock file's bytes claim.
TEST(KnobController, TheHolderIsTheKernelsNotTheLockFilesText) {
  FakeRoot root;
  std::filesystem::create_directories(root.path("run/schedrig"));
  const ForeignHolder foreign(root.path("run/schedrig/knobs.lock"));
  std::vector<std::string> told;
  try {
    KnobLock lock(root.root(), 300ms, [&](const LockWait& w) { told.push_back(w.holder); });
    ADD_FAILURE() << "expected the lock to be held";
  } catch (const KnobUnavailable& e) {
    EXPECT_NE(std::string(e.what()).find(fmt::format("(pid {})", foreign.pid())), std::string::npos)
        << e.what();
  }
  EXPECT_EQ(told, std::vector<std::string>{std::to_string(foreign.pid())});
}

// A holder that died (SIGKILL) leaves its lock file behind; it blocks nobody.
TEST(KnobController, AStaleLockFileOfADeadHolderDoesNotBlock) {
  FakeRoot root;
  std::filesystem::create_directories(root.path("run/schedrig"));
  { const ForeignHolder foreign(root.path("run/schedrig/knobs.lock")); }
  ASSERT_TRUE(std::filesystem::exists(root.path("run/schedrig/knobs.lock")));
  EXPECT_NO_THROW(KnobLock(root.root(), 100ms));
}

// The lock file's bytes are neither written nor read by the lock.
TEST(KnobController, TheLockFileIsNeverWritten) {
  FakeRoot root;
  std::filesystem::create_directories(root.path("run/schedrig"));
  const std::string path = root.path("run/schedrig/knobs.lock");
  std::ofstream(path) << "9999999999999999\n";
  const KnobLock lock(root.root(), 100ms);
  std::ifstream in(path);
  std::string first;
  std::getline(in, first);
  EXPECT_EQ(first, "9999999999999999");
}

// A lock directory anyone may write (ROOT/run/lock is 1777 on a real box) is
// refused: a planted file or link there could steer a root process.
TEST(KnobController, AWorldWritableLockDirectoryIsRefused) {
  FakeRoot root;
  std::filesystem::create_directories(root.path("run/schedrig"));
  ASSERT_EQ(::chmod(root.path("run/schedrig").c_str(), 01777), 0);
  try {
    KnobLock lock(root.root(), 100ms);
    FAIL() << "expected KnobError";
  } catch (const KnobError& e) {
    EXPECT_NE(std::string(e.what()).find("writable by group or others (mode 1777)"),
              std::string::npos)
        << e.what();
  }
}

// A link planted at the lock path must not make the root agent open its target.
TEST(KnobController, LockPlantedAsASymlinkIsRefusedAndItsTargetUntouched) {
  FakeRoot root;
  schedrig::testing::TempDir outside;
  std::ofstream(outside.file("victim")) << "precious\n";
  std::filesystem::create_directories(root.path("run/schedrig"));
  std::filesystem::create_symlink(outside.file("victim"), root.path("run/schedrig/knobs.lock"));
  try {
    KnobLock lock(root.root(), 100ms);
    FAIL() << "expected KnobError";
  } catch (const KnobError& e) {
    EXPECT_NE(std::string(e.what()).find("run/schedrig/knobs.lock"), std::string::npos) << e.what();
  }
  std::ifstream in(outside.file("victim"));
  std::string v;
  in >> v;
  EXPECT_EQ(v, "precious");
}

TEST(KnobController, ConsoleSetIsKeptThenRestoredByTheNextStart) {
  FakeRoot root;
  {
    KnobController k(root.root(), root.state_dir());
    k.apply({{KnobKind::kSysctl, "kernel.numa_balancing", "0"}});
    k.keep_journal();
  }
  EXPECT_EQ(root.get("proc/sys/kernel/numa_balancing"), "0");
  {
    // A run after the console set journals on top: its restore goes back to
    // the box as found, not to the console's value.
    KnobController k(root.root(), root.state_dir());
    k.apply(variant("0", ""));
    k.restore();
  }
  EXPECT_EQ(root.get("proc/sys/kernel/numa_balancing"), "1");
  EXPECT_EQ(root.get(kAutogroup), "1");
}

TEST(KnobController, ProbeReportsErrnoPerKnob) {
  FakeRoot root;
  KnobController k(root.root(), root.state_dir());
  auto caps = k.probe();
  bool saw_autogroup = false, saw_features = false;
  for (const auto& c : caps) {
    if (c.knob.name == "kernel.sched_autogroup_enabled") {
      saw_autogroup = true;
      EXPECT_TRUE(c.readable && c.writable);
      EXPECT_EQ(c.errno_value, 0);
      EXPECT_EQ(c.value, "1");  // FakeRoot's autogroup, as found (Hello's value)
    }
    if (c.knob.kind == KnobKind::kFeature) {
      saw_features = true;
      EXPECT_FALSE(c.readable);
      EXPECT_EQ(c.errno_value, ENOENT);
      EXPECT_FALSE(c.value);
    }
  }
  EXPECT_TRUE(saw_autogroup && saw_features);
}

TEST(KnobController, ProbeListsTheFeatureNamesTheKernelHas) {
  FakeRoot root;
  root.put("sys/kernel/debug/sched/features", "TTWU_QUEUE NO_NI_RANDOM GENTLE_FAIR_SLEEPERS\n");
  KnobController k(root.root(), root.state_dir());
  for (const auto& c : k.probe()) {
    if (c.knob.kind != KnobKind::kFeature) continue;
    EXPECT_TRUE(c.readable);
    EXPECT_EQ(c.features,
              (std::vector<std::string>{"GENTLE_FAIR_SLEEPERS", "NI_RANDOM", "TTWU_QUEUE"}));
    // Their states, in name order: what bisect-knobs --server starts from.
    EXPECT_EQ(c.value, "GENTLE_FAIR_SLEEPERS NO_NI_RANDOM TTWU_QUEUE");
    return;
  }
  ADD_FAILURE() << "no features capability";
}

TEST(KnobController, ProbeLeavesOutAValueTooLongForHello) {
  FakeRoot root;
  root.put("proc/sys/kernel/sched_autogroup_enabled", std::string(kMaxHelloValueBytes + 1, '1'));
  KnobController k(root.root(), root.state_dir());
  for (const auto& c : k.probe())
    if (c.knob.name == "kernel.sched_autogroup_enabled") {
      EXPECT_TRUE(c.readable);
      EXPECT_FALSE(c.value);
      return;
    }
  ADD_FAILURE() << "no autogroup capability";
}

// Bytes that are not UTF-8 in a knob file would make the whole Hello
// undecodable (a protobuf string must be UTF-8): the value is left out, a
// feature name is escaped (the host lists it as skipped), the rest stands.
TEST(KnobController, ProbeKeepsHelloUtf8WhateverTheFilesHold) {
  FakeRoot root;
  root.put("proc/sys/kernel/sched_autogroup_enabled", "\xff\n");
  root.put("sys/kernel/debug/sched/features", "TTWU_QUEUE NO_BAD\xfe\n");
  KnobController k(root.root(), root.state_dir());
  int seen = 0;
  for (const auto& c : k.probe()) {
    if (c.knob.name == "kernel.sched_autogroup_enabled") {
      EXPECT_TRUE(c.readable);
      EXPECT_FALSE(c.value);
      ++seen;
    } else if (c.knob.name == "kernel.numa_balancing") {
      EXPECT_EQ(c.value, "1");
      ++seen;
    } else if (c.knob.kind == KnobKind::kFeature) {
      EXPECT_EQ(c.features, (std::vector<std::string>{"BAD\\xfe", "TTWU_QUEUE"}));
      EXPECT_EQ(c.value, "NO_BAD\\xfe TTWU_QUEUE");
      ++seen;
    }
  }
  EXPECT_EQ(seen, 3);
}

// More features than a Hello carries: the first 512 by name, the rest
// counted (the host says they were not listed).
TEST(KnobController, ProbeCountsTheFeaturesPastWhatHelloCarries) {
  FakeRoot root;
  std::string line;
  for (int i = 0; i < 515; ++i) line += fmt::format("F{:03} ", i);
  root.put("sys/kernel/debug/sched/features", line + "\n");
  KnobController k(root.root(), root.state_dir());
  for (const auto& c : k.probe()) {
    if (c.knob.kind != KnobKind::kFeature) continue;
    EXPECT_EQ(c.features.size(), kMaxHelloFeatures);
    EXPECT_EQ(c.features_left_out, 3u);
    return;
  }
  ADD_FAILURE() << "no features capability";
}

}  // namespace
}  // namespace schedrig::knobs
