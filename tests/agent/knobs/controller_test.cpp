// KnobController on a fake root: journal before write, verify, restore,
// crash safety (SIGKILL, then a fresh start restores), boot scoping, the
// per-root lock and path-escape refusals.
#include "agent/knobs/knob_controller.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "agent/knobs/journal.h"
#include "tests/agent/knobs/fake_root.h"

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
    EXPECT_NE(std::string(e.what()).find("schedrig-knobs.lock"), std::string::npos) << e.what();
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
  EXPECT_NE(told[0].path.find("run/lock/schedrig-knobs.lock"), std::string::npos) << told[0].path;
  EXPECT_EQ(told[0].limit, kLockWait);
  EXPECT_TRUE(told[1].taken);
  EXPECT_GE(told[1].waited, 250ms);
  EXPECT_LT(told[1].waited, 5s);
  b.restore();
}

// Another process's hold on the lock: its own open file and flock, and the
// holder record it writes (as KnobLock does: fixed width, no truncation).
class ForeignHolder {
 public:
  explicit ForeignHolder(const std::string& path)
      : fd_(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    EXPECT_GE(fd_, 0);
    EXPECT_EQ(::flock(fd_, LOCK_EX | LOCK_NB), 0);
  }
  ~ForeignHolder() { ::close(fd_); }
  void record(const std::string& pid) {
    const std::string r = pid + std::string(10 - pid.size(), ' ') + "\n";
    EXPECT_EQ(::pwrite(fd_, r.data(), r.size(), 0), static_cast<ssize_t>(r.size()));
  }

 private:
  int fd_;
};

// The holder is read again while waiting: a lock passed to another process
// is told with the new pid, and the final failure names the holder at the
// end, not the one found first.
TEST(KnobController, AWaitRereadsTheHolderAndTheFailureNamesTheCurrentOne) {
  FakeRoot root;
  std::filesystem::create_directories(root.path("run/lock"));
  ForeignHolder foreign(root.path("run/lock/schedrig-knobs.lock"));
  foreign.record("111111");
  std::vector<std::string> told;
  std::thread pass([&] {
    std::this_thread::sleep_for(300ms);
    foreign.record("222222");
  });
  try {
    KnobLock lock(root.root(), 800ms, [&](const LockWait& w) { told.push_back(w.holder); });
    ADD_FAILURE() << "expected the lock to be held";
  } catch (const KnobError& e) {
    EXPECT_NE(std::string(e.what()).find("(pid 222222)"), std::string::npos) << e.what();
  }
  pass.join();
  EXPECT_EQ(told, (std::vector<std::string>{"111111", "222222"}));
}

// A lock file without a holder record yet (a fresh file) is not told as
// "held by pid ?" at once: the record is waited for, up to a grace period.
TEST(KnobController, AnUnrecordedHolderIsToldOnceItsRecordArrives) {
  FakeRoot root;
  std::filesystem::create_directories(root.path("run/lock"));
  ForeignHolder foreign(root.path("run/lock/schedrig-knobs.lock"));
  std::vector<std::string> told;
  std::thread write([&] {
    std::this_thread::sleep_for(200ms);
    foreign.record("333333");
  });
  EXPECT_THROW(KnobLock(root.root(), 500ms, [&](const LockWait& w) { told.push_back(w.holder); }),
               KnobError);
  write.join();
  EXPECT_EQ(told, std::vector<std::string>{"333333"});
}

// The holder's record is written in place, fixed width: a longer earlier
// content is overwritten up to the newline, never truncated to empty first.
TEST(KnobController, TheHolderRecordIsFixedWidthAndWrittenInPlace) {
  FakeRoot root;
  std::filesystem::create_directories(root.path("run/lock"));
  const std::string path = root.path("run/lock/schedrig-knobs.lock");
  std::ofstream(path) << "9999999999999999\n";
  const KnobLock lock(root.root(), 100ms);
  std::ifstream in(path);
  std::string first;
  std::getline(in, first);
  const std::string pid = std::to_string(::getpid());
  EXPECT_EQ(first, pid + std::string(10 - pid.size(), ' '));
}

// ROOT/run/lock is world-writable on a real box: a link planted at the lock
// path must not make the root agent open (and write its pid into) its target.
TEST(KnobController, LockPlantedAsASymlinkIsRefusedAndItsTargetUntouched) {
  FakeRoot root;
  schedrig::testing::TempDir outside;
  std::ofstream(outside.file("victim")) << "precious\n";
  std::filesystem::create_directories(root.path("run/lock"));
  std::filesystem::create_symlink(outside.file("victim"),
                                  root.path("run/lock/schedrig-knobs.lock"));
  try {
    KnobLock lock(root.root(), 100ms);
    FAIL() << "expected KnobError";
  } catch (const KnobError& e) {
    EXPECT_NE(std::string(e.what()).find("schedrig-knobs.lock"), std::string::npos) << e.what();
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
    }
    if (c.knob.kind == KnobKind::kFeature) {
      saw_features = true;
      EXPECT_FALSE(c.readable);
      EXPECT_EQ(c.errno_value, ENOENT);
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
    return;
  }
  ADD_FAILURE() << "no features capability";
}

}  // namespace
}  // namespace schedrig::knobs
