// Knob settings a box applies at every boot (issue #19): tmpfiles.d `w`
// lines and sysctl.d settings read from a fake root as systemd-tmpfiles and
// sysctl --system would apply them (tmpfiles.d(5), sysctl.d(5)).
#include "agent/knobs/persisted_knobs.h"

#include <sys/stat.h>

#include <filesystem>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "tests/agent/knobs/fake_root.h"

namespace schedrig::knobs {
namespace {

using testing::FakeRoot;

std::string text_of(const FakeRoot& root) {
  return persisted_knobs_text(persisted_knobs(root.root()));
}

TEST(PersistedKnobs, TheRhel102MitigationIsFoundWithItsSource) {
  FakeRoot root;
  root.put("etc/tmpfiles.d/sched-features.conf",
           "# RHEL 10.2: keep NI_RANDOM off across reboots\n"
           "w- /sys/kernel/debug/sched/features - - - - NO_NI_RANDOM\n");
  const auto found = persisted_knobs(root.root());
  const auto& knobs = found.settings;
  ASSERT_EQ(knobs.size(), 1u);
  EXPECT_EQ(knobs[0].knob, "sched_features");
  EXPECT_EQ(knobs[0].value, "NO_NI_RANDOM");
  EXPECT_EQ(knobs[0].source, "/etc/tmpfiles.d/sched-features.conf:2");
  EXPECT_EQ(persisted_knobs_text(found),
            "sched_features=NO_NI_RANDOM (/etc/tmpfiles.d/sched-features.conf:2)");
}

TEST(PersistedKnobs, NoneOnABoxThatSetsNothing) {
  FakeRoot root;
  // What every Debian box has: tmpfiles and sysctls that are not sched knobs.
  root.put("usr/lib/tmpfiles.d/tmp.conf", "D /tmp 1777 root root -\n");
  root.put("usr/lib/sysctl.d/50-pid-max.conf", "kernel.pid_max = 4194304\n");
  root.put("etc/sysctl.conf", "#kernel.numa_balancing = 0\n");
  EXPECT_EQ(text_of(root), "none");
}

TEST(PersistedKnobs, AnEtcFileMasksTheSameNameInUsrLib) {
  FakeRoot root;
  root.put("usr/lib/tmpfiles.d/vendor.conf",
           "w /sys/kernel/debug/sched/features - - - - NO_PLACE_LAG\n");
  root.put("etc/tmpfiles.d/vendor.conf", "# the admin's override: nothing\n");
  root.put("run/tmpfiles.d/zz.conf", "w+ /sys/kernel/debug/sched/base_slice_ns - - - - 3000000\n");
  EXPECT_EQ(text_of(root), "sched/base_slice_ns=3000000 (/run/tmpfiles.d/zz.conf:1)");
}

TEST(PersistedKnobs, AllowlistedSysctlsFromSysctlDAndTmpfilesInOrder) {
  FakeRoot root;
  root.put("usr/lib/sysctl.d/60-numa.conf",
           "; vendor tuning\nkernel.numa_balancing = 0\n-kernel/sched_autogroup_enabled=0\n"
           "vm.swappiness = 10\n");
  root.put("etc/tmpfiles.d/a.conf",
           "w /proc/sys/kernel/sched_rr_timeslice_ms - - - - 50\n"
           "w /proc/sys/kernel/core_pattern - - - - |/bin/false\n");
  root.put("etc/sysctl.conf", "kernel.sched_child_runs_first=1\n");
  const auto found = persisted_knobs(root.root());
  const auto& knobs = found.settings;
  ASSERT_EQ(knobs.size(), 4u) << persisted_knobs_text(found);
  EXPECT_EQ(knobs[0].knob, "kernel.sched_rr_timeslice_ms");  // tmpfiles first, as at boot
  EXPECT_EQ(knobs[1].knob, "kernel.numa_balancing");
  EXPECT_EQ(knobs[1].source, "/usr/lib/sysctl.d/60-numa.conf:2");
  EXPECT_EQ(knobs[2].knob, "kernel.sched_autogroup_enabled");  // '-' and '/' as sysctl reads them
  EXPECT_EQ(knobs[2].value, "0");
  EXPECT_EQ(knobs[3].source, "/etc/sysctl.conf:1");
}

// A .conf link to /dev/null masks (tmpfiles.d(5)); another link is read
// where it points, the target taken under the root as the box would.
TEST(PersistedKnobs, ALinkToDevNullMasksAndAnotherLinkIsFollowed) {
  FakeRoot root;
  namespace fs = std::filesystem;
  root.put("usr/lib/tmpfiles.d/masked.conf", "w /sys/kernel/debug/sched/features - - - - NO_X\n");
  fs::create_directories(root.path("etc/tmpfiles.d"));
  fs::create_symlink("/dev/null", root.path("etc/tmpfiles.d/masked.conf"));
  root.put("opt/tuning/sched.conf", "w /sys/kernel/debug/sched/features - - - - NO_NI_RANDOM\n");
  fs::create_symlink("/opt/tuning/sched.conf", root.path("etc/tmpfiles.d/linked.conf"));
  root.put("usr/lib/sysctl.d/rel-target", "kernel.numa_balancing = 0\n");
  fs::create_symlink("rel-target", root.path("usr/lib/sysctl.d/10-rel.conf"));
  EXPECT_EQ(text_of(root),
            "sched_features=NO_NI_RANDOM (/etc/tmpfiles.d/linked.conf:1); "
            "kernel.numa_balancing=0 (/usr/lib/sysctl.d/10-rel.conf:1)");
}

// What cannot be read is said, not silently dropped: a file over 1 MiB, a
// dangling link, a link to a link.
TEST(PersistedKnobs, AFileItCannotReadIsNamed) {
  FakeRoot root;
  namespace fs = std::filesystem;
  root.put("etc/sysctl.d/huge.conf", std::string((1 << 20) + 1, '#'));
  fs::create_symlink("/nowhere.conf", root.path("etc/sysctl.d/gone.conf"));
  root.put("target.conf", "kernel.numa_balancing = 0\n");
  fs::create_symlink("/target.conf", root.path("hop.conf"));
  fs::create_symlink("/hop.conf", root.path("etc/sysctl.d/hops.conf"));
  EXPECT_EQ(text_of(root),
            "unread /etc/sysctl.d/gone.conf: No such file or directory; "
            "unread /etc/sysctl.d/hops.conf: a link to a link; "
            "unread /etc/sysctl.d/huge.conf: over 1 MiB");
}

TEST(PersistedKnobs, ControlCharactersAndSeparatorsAreEscaped) {
  FakeRoot root;
  root.put("etc/tmpfiles.d/m.conf", "w /sys/kernel/debug/sched/features - - - - A\x1b[2J\n");
  // A value that would otherwise read as a second setting from another file.
  root.put("etc/tmpfiles.d/n.conf",
           "w /sys/kernel/debug/sched/base_slice_ns - - - - 1 (x); kernel.numa_balancing=1 (y)\n");
  EXPECT_EQ(text_of(root),
            "sched_features=A\\e[2J (/etc/tmpfiles.d/m.conf:1); "
            "sched/base_slice_ns=1 \\x28x\\x29\\x3b kernel.numa_balancing=1 \\x28y\\x29 "
            "(/etc/tmpfiles.d/n.conf:1)");
}

TEST(PersistedKnobs, AtMost64SettingsAreReadAndTheRestCounted) {
  FakeRoot root;
  std::string lines;
  for (int i = 0; i < 100; ++i) lines += "kernel.numa_balancing = 0\n";
  root.put("etc/sysctl.d/many.conf", lines);
  const auto found = persisted_knobs(root.root());
  EXPECT_EQ(found.settings.size(), 64u);
  EXPECT_EQ(found.left_out, 36u);
  EXPECT_TRUE(persisted_knobs_text(found).ends_with("(/etc/sysctl.d/many.conf:64); +36 more"));
}

// Only .conf files count toward the 256 a kind, taken in name order.
TEST(PersistedKnobs, TheFileBoundCountsConfFilesInNameOrder) {
  FakeRoot root;
  for (int i = 0; i < 300; ++i) root.put(fmt::format("etc/sysctl.d/junk-{:03}.txt", i), "x\n");
  for (int i = 0; i < 257; ++i) root.put(fmt::format("etc/sysctl.d/{:03}.conf", i), "\n");
  root.put("etc/sysctl.d/000.conf", "kernel.numa_balancing = 0\n");
  root.put("etc/sysctl.d/256.conf", "kernel.sched_autogroup_enabled = 0\n");
  EXPECT_EQ(text_of(root), "kernel.numa_balancing=0 (/etc/sysctl.d/000.conf:1); +1 more");
}

// What systemd reads the same way as the plain spelling: a quoted, escaped
// or doubled-slash path, and globs in tmpfiles paths and sysctl.d keys.
TEST(PersistedKnobs, QuotedEscapedAndGlobSpellingsAreFound) {
  FakeRoot root;
  root.put("etc/tmpfiles.d/a.conf",
           "w- \"/sys/kernel/debug/sched/features\" - - - - NO_NI_RANDOM\n"
           "w /sys//kernel/debug/./sched/features - - - - NO_PLACE_LAG\n"
           "w /proc/sys/kernel/numa_balancin[g] - - - - 0\n"
           "w /sys/kernel/debug/sched/\\x62ase_slice_ns - - - - 3000000\n");
  root.put("etc/sysctl.d/b.conf", "kernel.sched_autogroup_enable? = 0\n");
  EXPECT_EQ(text_of(root),
            "sched_features=NO_NI_RANDOM (/etc/tmpfiles.d/a.conf:1); "
            "sched_features=NO_PLACE_LAG (/etc/tmpfiles.d/a.conf:2); "
            "kernel.numa_balancing=0 (/etc/tmpfiles.d/a.conf:3); "
            "sched/base_slice_ns=3000000 (/etc/tmpfiles.d/a.conf:4); "
            "kernel.sched_autogroup_enabled=0 (/etc/sysctl.d/b.conf:1)");
}

// A scheduler setting schedrig has no knob for is named, not dropped.
TEST(PersistedKnobs, ASchedulerSettingItDoesNotKnowIsNamed) {
  FakeRoot root;
  root.put("etc/sysctl.d/c.conf", "kernel.sched_new_thing = 1\nvm.swappiness = 10\n");
  root.put("etc/tmpfiles.d/d.conf", "w /proc/sys/kernel/sched_other* - - - - 1\n");
  EXPECT_EQ(text_of(root),
            "unrecognised /etc/tmpfiles.d/d.conf:1 /proc/sys/kernel/sched_other*; "
            "unrecognised /etc/sysctl.d/c.conf:1 kernel.sched_new_thing");
}

// Only regular files are opened (a FIFO would block, a device can act), and
// a directory too big to list whole is named.
TEST(PersistedKnobs, AFifoIsNotOpenedAndAHugeDirectoryIsNamed) {
  FakeRoot root;
  std::filesystem::create_directories(root.path("etc/sysctl.d"));
  ASSERT_EQ(::mkfifo(root.path("etc/sysctl.d/fifo.conf").c_str(), 0644), 0);
  for (int i = 0; i < 4100; ++i) root.put(fmt::format("usr/lib/tmpfiles.d/x{}.txt", i), "");
  EXPECT_EQ(text_of(root),
            "unread /etc/sysctl.d/fifo.conf: not a regular file; "
            "unread /usr/lib/tmpfiles.d: more than 4096 entries");
}

}  // namespace
}  // namespace schedrig::knobs
