// The knob agent against a hostile tree (it runs as root): a tampered
// journal, a journal of another root, links out of the root, an empty or
// missing --root, a link planted at the journal's temporary file, a held
// lock, and a FIFO as a knob file. Everything runs on fake roots.
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "agent/knobs/journal.h"
#include "agent/knobs/knob_controller.h"
#include "agent/knobs/knob_file.h"
#include "agent/knobs/knob_lock.h"
#include "agent/knobs/knob_paths.h"
#include "tests/agent/knobs/fake_root.h"
#include "tests/support/child_process.h"
#include "tests/support/run_command.h"

namespace schedrig::knobs {
namespace {

namespace fs = std::filesystem;
using schedrig::testing::bin;
using schedrig::testing::run_command;
using schedrig::testing::TempDir;
using testing::FakeRoot;
using namespace std::chrono_literals;

const std::string kBootId = "11111111-2222-4333-8444-555555555555";  // FakeRoot's
const std::string kAutogroup = "proc/sys/kernel/sched_autogroup_enabled";
const KnobSetting kAutogroupOff{KnobKind::kSysctl, "kernel.sched_autogroup_enabled", "0"};

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::string v;
  std::getline(in, v);
  return v;
}

// A journal for `root` listing `entries` as originals, as a tampered file would.
void plant_journal(const FakeRoot& root, const std::vector<KnobSetting>& entries) {
  Journal j{kBootId, root.root(), 1, 4242, {}};
  for (const auto& e : entries) j.entries.push_back({e, "ignored"});
  write_journal(journal_path(root.state_dir()), j);
}

std::string agent(const std::string& args) { return bin("schedrig-agent") + " " + args + " 2>&1"; }

TEST(KnobHardening, RestoreRefusesEntriesASetWouldRefuse) {
  FakeRoot root;
  root.put("proc/sys/kernel/core_pattern", "core\n");
  plant_journal(root, {{KnobKind::kSysctl, "kernel.core_pattern", "|/tmp/x %p"},
                       {KnobKind::kSysctl, "kernel.numa_balancing", "99999"},
                       {KnobKind::kDebugfs, "sched/../../../etc/x", "1"},
                       {KnobKind::kFeature, "NI_RANDOM", "maybe"},
                       {KnobKind::kSysctl, "kernel.sched_autogroup_enabled", "0"}});
  KnobController k(root.root(), root.state_dir());
  auto restored = k.recover();
  ASSERT_EQ(restored.size(), 1u);
  EXPECT_EQ(restored[0].original.name, "kernel.sched_autogroup_enabled");
  EXPECT_EQ(root.get("proc/sys/kernel/core_pattern"), "core");
  EXPECT_EQ(root.get("proc/sys/kernel/numa_balancing"), "1");
  EXPECT_EQ(root.get(kAutogroup), "0");  // the valid entry still restores
  EXPECT_FALSE(fs::exists(k.journal_file()));
}

// A variant's "" (the journaled original) is validated too: a planted
// journal entry cannot reach the kernel through apply either.
TEST(KnobHardening, ApplyOfTheOriginalRefusesAPlantedOutOfRangeValue) {
  FakeRoot root;
  plant_journal(root, {{KnobKind::kSysctl, "kernel.numa_balancing", "99999"}});
  {
    KnobController k(root.root(), root.state_dir());
    EXPECT_THROW(k.apply({{KnobKind::kSysctl, "kernel.numa_balancing", ""}}), KnobError);
    EXPECT_EQ(root.get("proc/sys/kernel/numa_balancing"), "1");
  }
  EXPECT_EQ(root.get("proc/sys/kernel/numa_balancing"), "1");
}

// A value as found that a restore would refuse (here out of the allowlist's
// range, as only a fake root can hold) is never changed: it could not be put
// back.
TEST(KnobHardening, AKnobWhoseValueAsFoundCouldNotBeRestoredIsNotChanged) {
  FakeRoot root;
  root.put("proc/sys/kernel/numa_balancing", "99999\n");
  KnobController k(root.root(), root.state_dir());
  try {
    k.apply({{KnobKind::kSysctl, "kernel.numa_balancing", "0"}});
    FAIL() << "applied";
  } catch (const KnobError& e) {
    EXPECT_NE(std::string(e.what()).find("kernel.numa_balancing not changed: its value as found "
                                         "could not be restored"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("'99999'"), std::string::npos) << e.what();
  }
  EXPECT_EQ(root.get("proc/sys/kernel/numa_balancing"), "99999");
  k.restore();  // nothing was journaled: nothing to fail
}

// An adopted journal (a console `knobs set`'s) whose original for the knob
// would be refused: the knob is not changed either, and the journal stays.
TEST(KnobHardening, AKnobWhoseJournaledOriginalWouldBeRefusedIsNotChanged) {
  FakeRoot root;
  plant_journal(root, {{KnobKind::kSysctl, "kernel.sched_autogroup_enabled", "99999"}});
  {
    KnobController k(root.root(), root.state_dir());
    try {
      k.apply({kAutogroupOff});
      FAIL() << "applied";
    } catch (const KnobError& e) {
      EXPECT_NE(std::string(e.what()).find("kernel.sched_autogroup_enabled not changed: its "
                                           "journaled original could not be restored"),
                std::string::npos)
          << e.what();
    }
    EXPECT_EQ(root.get(kAutogroup), "1");
    k.keep_journal();
  }
  EXPECT_TRUE(fs::exists(journal_path(root.state_dir())));
  auto r = run_command(agent("knobs set kernel.sched_autogroup_enabled=0 --root " + root.dir() +
                             " --state-dir " + root.state_dir()));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(root.get(kAutogroup), "1");
}

// Bytes a knob file holds reach the terminal escaped and JSON as U+FFFD,
// never raw, never as a crash.
TEST(KnobHardening, KnobsListShowsAFilesBadBytesEscaped) {
  FakeRoot root;
  root.put(kAutogroup, "\x1b[2J\xff\n");
  const std::string flags = " --root " + root.dir() + " --state-dir " + root.state_dir();
  auto r = run_command(agent("knobs list" + flags));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.find('\x1b'), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\\e[2J\\xff"), std::string::npos) << r.output;
  r = run_command(agent("knobs list --json" + flags));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("\"\\u001b[2J\xef\xbf\xbd\""), std::string::npos) << r.output;
  r = run_command(agent("knobs get kernel.sched_autogroup_enabled" + flags));
  EXPECT_EQ(r.output.find('\x1b'), std::string::npos) << r.output;
}

// A run on a box with a console `knobs set` journal whose entry is refused:
// the run's restore counts it as a failure (the run is "knobs not
// restored"), after restoring what it can.
TEST(KnobHardening, ARefusedJournalEntryIsARestoreFailure) {
  FakeRoot root;
  plant_journal(root, {{KnobKind::kSysctl, "kernel.numa_balancing", "99999"}});
  KnobController k(root.root(), root.state_dir());
  k.apply({kAutogroupOff});
  EXPECT_EQ(root.get(kAutogroup), "0");
  try {
    k.restore();
    FAIL() << "restored";
  } catch (const KnobUnavailable& e) {
    EXPECT_NE(std::string(e.what()).find(
                  "kernel.numa_balancing: its journaled original was refused, left as it is"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(root.get(kAutogroup), "1");  // what could be restored was
  EXPECT_EQ(root.get("proc/sys/kernel/numa_balancing"), "1");
  EXPECT_TRUE(fs::exists(k.journal_file()));  // kept for `knobs restore` and a person
  k.keep_journal();
}

TEST(KnobHardening, KnobsRestoreCommandRefusesATamperedJournal) {
  FakeRoot root;
  root.put("proc/sys/kernel/core_pattern", "core\n");
  plant_journal(root, {{KnobKind::kSysctl, "kernel.core_pattern", "|/tmp/x %p"},
                       {KnobKind::kSysctl, "kernel.numa_balancing", "99999"}});
  auto r =
      run_command(agent("knobs restore --root " + root.dir() + " --state-dir " + root.state_dir()));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("kernel.core_pattern"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("kernel.numa_balancing"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("refused"), std::string::npos) << r.output;
  EXPECT_EQ(root.get("proc/sys/kernel/core_pattern"), "core");
  EXPECT_EQ(root.get("proc/sys/kernel/numa_balancing"), "1");
}

TEST(KnobHardening, AJournalOthersMayWriteIsNeverApplied) {
  FakeRoot root;
  root.put("proc/sys/kernel/numa_balancing", "1\n");
  plant_journal(root, {{KnobKind::kSysctl, "kernel.numa_balancing", "0"}});
  const std::string file = journal_path(root.state_dir());
  ASSERT_EQ(::chmod(file.c_str(), 0666), 0);
  EXPECT_THROW(read_journal(file), KnobError);
  auto r =
      run_command(agent("knobs restore --root " + root.dir() + " --state-dir " + root.state_dir()));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("mode 0666: writable by group or other"), std::string::npos) << r.output;
  EXPECT_EQ(root.get("proc/sys/kernel/numa_balancing"), "1");  // not written from it
  EXPECT_TRUE(fs::exists(file));                               // left for a person
}

TEST(KnobHardening, JournalOfAnotherRootIsLeftInPlaceNotApplied) {
  FakeRoot r1, other;
  const std::string state = r1.state_dir();
  {
    KnobController k(r1.root(), state);
    k.apply({{KnobKind::kSysctl, "kernel.numa_balancing", "3"}});
    k.keep_journal();
  }
  {
    KnobController k(other.root(), state);
    EXPECT_TRUE(k.recover().empty());
    EXPECT_TRUE(fs::exists(k.journal_file()));
  }
  EXPECT_EQ(r1.get("proc/sys/kernel/numa_balancing"), "3");  // not restored from elsewhere
  EXPECT_EQ(other.get("proc/sys/kernel/numa_balancing"), "1");
  KnobController own(r1.root(), state);
  EXPECT_EQ(own.recover().size(), 1u);
  EXPECT_EQ(r1.get("proc/sys/kernel/numa_balancing"), "1");
}

TEST(KnobHardening, ConnectWithAnotherRootNamesBothRootsAndRestoresNeither) {
  FakeRoot r1, other;
  const std::string state = r1.state_dir();
  ASSERT_EQ(run_command(agent("knobs set kernel.numa_balancing=3 --root " + r1.dir() +
                              " --state-dir " + state))
                .exit_code,
            0);
  const std::string token = other.dir() + "/agent.token";
  std::ofstream(token) << "t\n";
  ::chmod(token.c_str(), 0600);
  auto r =
      run_command("timeout 10 " + agent("connect ws://127.0.0.1:1/agent --root " + other.dir() +
                                        " --state-dir " + state + " --token-file " + token));
  EXPECT_NE(r.output.find(r1.dir()), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(other.dir()), std::string::npos) << r.output;
  EXPECT_EQ(r1.get("proc/sys/kernel/numa_balancing"), "3");
  EXPECT_TRUE(fs::exists(journal_path(state)));
}

// An outside tree standing in for the live /proc and /sys (the live knobs
// are never touched): ROOT/proc or ROOT/sys/kernel/debug links into it.
TEST(KnobHardening, ASymlinkedAncestorLeavingTheRootIsRefused) {
  FakeRoot root;
  TempDir outside;
  fs::create_directories(outside.file("proc/sys/kernel"));
  std::ofstream(outside.file("proc/sys/kernel/sched_autogroup_enabled")) << "1\n";
  fs::remove_all(root.path("proc"));
  fs::create_symlink(outside.file("proc"), root.path("proc"));
  KnobController k(root.root(), root.state_dir());
  EXPECT_THROW(knob_path(root.root(), kAutogroupOff), KnobError);
  EXPECT_THROW(k.current({kAutogroupOff}), KnobError);
  EXPECT_THROW(k.apply({kAutogroupOff}), KnobError);
  EXPECT_EQ(slurp(outside.file("proc/sys/kernel/sched_autogroup_enabled")), "1");

  fs::create_directories(outside.file("debug/sched"));
  std::ofstream(outside.file("debug/sched/features")) << "NI_RANDOM\n";
  fs::remove_all(root.path("sys/kernel/debug"));
  fs::create_symlink(outside.file("debug"), root.path("sys/kernel/debug"));
  try {
    features_path(root.root());
    FAIL() << "expected KnobError";
  } catch (const KnobError& e) {
    EXPECT_NE(std::string(e.what()).find("resolves outside"), std::string::npos) << e.what();
  }
}

TEST(KnobHardening, LiveRootPathsAreAccepted) {
  EXPECT_EQ(knob_path(procfs::Root::live(), kAutogroupOff),
            "/proc/sys/kernel/sched_autogroup_enabled");
  EXPECT_NO_THROW(knob_path(procfs::Root::live(), {KnobKind::kDebugfs, "sched/base_slice_ns", ""}));
}

TEST(KnobHardening, EmptyOrMissingRootIsAUsageError) {
  auto empty = run_command(agent("knobs get kernel.numa_balancing --root ''"));
  EXPECT_EQ(empty.exit_code, 2) << empty.output;
  EXPECT_NE(empty.output.find("--root ''"), std::string::npos) << empty.output;
  auto missing = run_command(agent("knobs set kernel.numa_balancing=0 --root /nonexistent/fake"));
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_NE(missing.output.find("/nonexistent/fake"), std::string::npos) << missing.output;
  FakeRoot root;
  std::ofstream(root.path("plain-file")) << "x\n";
  auto file =
      run_command(agent("knobs get kernel.numa_balancing --root " + root.path("plain-file")));
  EXPECT_EQ(file.exit_code, 2) << file.output;
  auto ok = run_command(agent("knobs get kernel.numa_balancing --root " + root.dir()));
  EXPECT_EQ(ok.exit_code, 0) << ok.output;
  EXPECT_NE(ok.output.find("kernel.numa_balancing=1"), std::string::npos) << ok.output;
  auto help = run_command(agent("knobs set --help"));
  EXPECT_NE(help.output.find("live machine"), std::string::npos) << help.output;
}

TEST(KnobHardening, JournalTempFileLinkIsNotFollowed) {
  FakeRoot root;
  TempDir outside;
  std::ofstream(outside.file("victim")) << "precious\n";
  fs::create_directories(root.state_dir());
  fs::create_symlink(outside.file("victim"), journal_path(root.state_dir()) + ".tmp");
  {
    KnobController k(root.root(), root.state_dir());
    k.apply({kAutogroupOff});
    k.keep_journal();
  }
  EXPECT_EQ(slurp(outside.file("victim")), "precious");
  EXPECT_FALSE(fs::is_symlink(journal_path(root.state_dir()) + ".tmp"));
  auto j = read_journal(journal_path(root.state_dir()));
  ASSERT_TRUE(j);
  EXPECT_EQ(j->entries.size(), 1u);
  EXPECT_EQ(fs::status(journal_path(root.state_dir())).permissions() & fs::perms::others_read,
            fs::perms::none);
}

TEST(KnobHardening, JournalReadRefusesALinkAndAnOversizeFile) {
  FakeRoot root;
  const std::string file = journal_path(root.state_dir());
  fs::create_directories(root.state_dir());
  plant_journal(root, {kAutogroupOff});
  fs::rename(file, root.path("elsewhere.json"));
  fs::create_symlink(root.path("elsewhere.json"), file);
  EXPECT_THROW(read_journal(file), KnobError);
  fs::remove(file);
  std::ofstream(file) << std::string((1 << 20) + 10, ' ');
  EXPECT_THROW(read_journal(file), KnobError);
}

TEST(KnobHardening, ALockHeldByAnotherProcessIsUnavailable) {
  FakeRoot root;
  const std::string path = lock_path(root.root());
  fs::create_directories(fs::path(path).parent_path());
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
  try {
    KnobLock lock(root.root(), 50ms);
    FAIL() << "expected KnobUnavailable";
  } catch (const KnobUnavailable& e) {
    EXPECT_EQ(e.errno_value(), EWOULDBLOCK);
    EXPECT_NE(std::string(e.what()).find("run/schedrig/knobs.lock"), std::string::npos) << e.what();
  }
  ::close(fd);
  EXPECT_NO_THROW(KnobLock(root.root(), 50ms));
}

TEST(KnobHardening, TheKnobLockIs0600AndALinkedRootRunIsRefused) {
  FakeRoot root;
  {
    KnobLock lock(root.root(), 50ms);
    struct stat st {};
    ASSERT_EQ(::stat(lock_path(root.root()).c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0600u);
  }
  FakeRoot linked;
  schedrig::testing::TempDir elsewhere;
  fs::remove_all(linked.path("run"));
  fs::create_directory_symlink(elsewhere.path(), linked.path("run"));
  try {
    KnobLock lock(linked.root(), 50ms);
    FAIL() << "expected the link refused";
  } catch (const KnobError& e) {
    EXPECT_NE(std::string(e.what()).find("knob lock: cannot open directory " + linked.path("run")),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("(a link or not a directory)"), std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(fs::exists(elsewhere.file("schedrig")));
}

// `knobs set` while another process (a run) holds the knob lock waits,
// saying so on stderr, and sets the knob once the lock is free.
TEST(KnobHardening, AKnobsSetDuringARunWaitsSayingSo) {
  FakeRoot root;
  auto held = std::make_unique<KnobLock>(root.root(), 50ms);
  schedrig::testing::ChildProcess set(
      {bin("schedrig-agent"), "knobs", "set", "kernel.sched_autogroup_enabled=0", "--root",
       root.dir(), "--state-dir", root.state_dir()},
      root.path("set.log"));
  ASSERT_TRUE(
      set.wait_for_log("waiting for the knob lock held by pid " + std::to_string(::getpid()), 10s))
      << set.log();
  EXPECT_EQ(root.get(kAutogroup), "1");  // nothing written while it waits
  held.reset();
  EXPECT_EQ(set.wait_for_exit(20s), 0) << set.log();
  EXPECT_NE(set.log().find("took the knob lock after "), std::string::npos) << set.log();
  EXPECT_EQ(root.get(kAutogroup), "0");
}

TEST(KnobHardening, AFifoAsAKnobIsRefusedWithoutBlocking) {
  FakeRoot root;
  const std::string path = root.path(kAutogroup);
  fs::remove(path);
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  ::alarm(20);  // a regression would block forever in open(2)
  Access a = probe_access(path);
  EXPECT_FALSE(a.readable);
  EXPECT_FALSE(a.writable);
  EXPECT_EQ(a.errno_value, EINVAL);
  KnobController k(root.root(), root.state_dir());
  try {
    k.check({kAutogroupOff});
    FAIL() << "expected KnobUnavailable";
  } catch (const KnobUnavailable& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  // With a reader on the FIFO the open succeeds; fstat still refuses it.
  int reader = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  ASSERT_GE(reader, 0);
  try {
    write_knob_file(path, "0");
    FAIL() << "expected KnobUnavailable";
  } catch (const KnobUnavailable& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not a regular file"), std::string::npos) << e.what();
  }
  char buf[8];
  EXPECT_EQ(::read(reader, buf, sizeof buf), 0);  // nothing was written into it
  ::close(reader);
  EXPECT_THROW(read_knob_file(path), KnobUnavailable);
  EXPECT_THROW(k.apply({kAutogroupOff}), KnobError);
  ::alarm(0);
}

}  // namespace
}  // namespace schedrig::knobs
