// Knob settings a box applies at every boot (issue #19): tmpfiles.d `w`
// lines and sysctl.d settings read from a fake root as systemd-tmpfiles and
// sysctl --system would apply them (tmpfiles.d(5), sysctl.d(5)).
#include "agent/knobs/persisted_knobs.h"

#include <filesystem>

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
  const auto knobs = persisted_knobs(root.root());
  ASSERT_EQ(knobs.size(), 1u);
  EXPECT_EQ(knobs[0].knob, "sched_features");
  EXPECT_EQ(knobs[0].value, "NO_NI_RANDOM");
  EXPECT_EQ(knobs[0].source, "/etc/tmpfiles.d/sched-features.conf:2");
  EXPECT_EQ(persisted_knobs_text(knobs),
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
  const auto knobs = persisted_knobs(root.root());
  ASSERT_EQ(knobs.size(), 4u) << persisted_knobs_text(knobs);
  EXPECT_EQ(knobs[0].knob, "kernel.sched_rr_timeslice_ms");  // tmpfiles first, as at boot
  EXPECT_EQ(knobs[1].knob, "kernel.numa_balancing");
  EXPECT_EQ(knobs[1].source, "/usr/lib/sysctl.d/60-numa.conf:2");
  EXPECT_EQ(knobs[2].knob, "kernel.sched_autogroup_enabled");  // '-' and '/' as sysctl reads them
  EXPECT_EQ(knobs[2].value, "0");
  EXPECT_EQ(knobs[3].source, "/etc/sysctl.conf:1");
}

TEST(PersistedKnobs, ALinkIsNotFollowedAndControlCharactersAreEscaped) {
  FakeRoot root;
  root.put("outside.conf", "w /sys/kernel/debug/sched/features - - - - NO_NI_RANDOM\n");
  std::filesystem::create_directories(root.path("etc/tmpfiles.d"));
  std::filesystem::create_symlink(root.path("outside.conf"), root.path("etc/tmpfiles.d/l.conf"));
  root.put("usr/lib/tmpfiles.d/l.conf", "w /sys/kernel/debug/sched/features - - - - NO_X\n");
  root.put("etc/tmpfiles.d/m.conf", "w /sys/kernel/debug/sched/features - - - - A\x1b[2J\n");
  // l.conf in /etc (a link, as a mask to /dev/null would be) masks /usr/lib's.
  EXPECT_EQ(text_of(root), "sched_features=A\\e[2J (/etc/tmpfiles.d/m.conf:1)");
}

TEST(PersistedKnobs, AtMost64SettingsAreRead) {
  FakeRoot root;
  std::string lines;
  for (int i = 0; i < 100; ++i) lines += "kernel.numa_balancing = 0\n";
  root.put("etc/sysctl.d/many.conf", lines);
  EXPECT_EQ(persisted_knobs(root.root()).size(), 64u);
}

}  // namespace
}  // namespace schedrig::knobs
