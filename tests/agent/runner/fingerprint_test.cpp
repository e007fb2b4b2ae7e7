#include "agent/runner/fingerprint.h"

#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "tests/support/run_command.h"
#include "tests/support/time_limit.h"

namespace schedrig::runner {
namespace {

void put(const schedrig::testing::TempDir& d, const std::string& rel, const std::string& text) {
  std::filesystem::create_directories(std::filesystem::path(d.file(rel)).parent_path());
  std::ofstream(d.file(rel)) << text;
}

TEST(Fingerprint, ReadsAFakeRoot) {
  schedrig::testing::TempDir root;
  put(root, "proc/cmdline", "BOOT_IMAGE=/vmlinuz isolcpus=2-3\n");
  put(root, "proc/config.gz", "not really gzip");
  put(root, "proc/cpuinfo", "processor\t: 0\nmicrocode\t: 0xa0011d1\n");
  put(root, "sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", "performance\n");
  put(root, "sys/devices/system/cpu/smt/control", "on\n");
  put(root, "sys/devices/system/cpu/vulnerabilities/spectre_v2", "Mitigation: Retpolines\n");
  put(root, "sys/kernel/debug/sched/features", "PLACE_LAG NO_NI_RANDOM\n");
  auto fp = take_fingerprint(procfs::Root::under(root.path()));
  EXPECT_EQ(fp.kernel_cmdline(), "BOOT_IMAGE=/vmlinuz isolcpus=2-3");
  EXPECT_EQ(fp.sched_features(), "PLACE_LAG NO_NI_RANDOM");
  const auto& f = fp.fields();
  EXPECT_EQ(f.at("cpufreq_governor"), "performance");
  EXPECT_EQ(f.at("smt_control"), "on");
  EXPECT_EQ(f.at("microcode"), "0xa0011d1");
  EXPECT_EQ(f.at("vulnerability.spectre_v2"), "Mitigation: Retpolines");
  EXPECT_EQ(f.at("kernel_config").rfind("fnv1a64:", 0), 0u);
  EXPECT_EQ(f.at("cpufreq_driver"), "unknown");  // missing source: unknown, not fatal
  EXPECT_EQ(f.at("persisted_knobs"), "none");
}

// A sched feature the box sets at every boot changes what "the box as
// found" means: the fingerprint names it and where it comes from.
TEST(Fingerprint, RecordsKnobSettingsPersistedAcrossReboots) {
  schedrig::testing::TempDir root;
  put(root, "etc/tmpfiles.d/schedrig-sched-features.conf",
      "w- /sys/kernel/debug/sched/features - - - - NO_NI_RANDOM\n");
  put(root, "etc/sysctl.d/60-schedrig.conf", "kernel.numa_balancing = 0\n");
  const auto fp = take_fingerprint(procfs::Root::under(root.path()));
  EXPECT_EQ(fp.fields().at("persisted_knobs"),
            "sched_features=NO_NI_RANDOM (/etc/tmpfiles.d/schedrig-sched-features.conf:1); "
            "kernel.numa_balancing=0 (/etc/sysctl.d/60-schedrig.conf:1)");
}

TEST(Fingerprint, TwoConfigsHashApart) {
  schedrig::testing::TempDir a, b;
  put(a, "proc/config.gz", "CONFIG_SCHED_DEBUG=y\n");
  put(b, "proc/config.gz", "CONFIG_SCHED_DEBUG=n\n");
  EXPECT_NE(take_fingerprint(procfs::Root::under(a.path())).fields().at("kernel_config"),
            take_fingerprint(procfs::Root::under(b.path())).fields().at("kernel_config"));
}

TEST(Fingerprint, EmptyRootIsAllUnknown) {
  schedrig::testing::TempDir root;
  auto fp = take_fingerprint(procfs::Root::under(root.path()));
  EXPECT_EQ(fp.fields().at("kernel_config"), "unknown");
  EXPECT_EQ(fp.fields().at("sched_features"), "unknown");
  EXPECT_EQ(fp.fields().at("vulnerabilities"), "unknown");
}

// "microcode :" with nothing after the colon: the fingerprint still comes
// back (the field unknown), it never throws.
TEST(Fingerprint, MicrocodeWithoutAValueIsUnknown) {
  schedrig::testing::TempDir root;
  put(root, "proc/cpuinfo", "processor\t: 0\nmicrocode\t:\n");
  v1::Fingerprint fp;
  EXPECT_NO_THROW(fp = take_fingerprint(procfs::Root::under(root.path())));
  EXPECT_EQ(fp.fields().at("microcode"), "unknown");
  put(root, "proc/cpuinfo", "microcode :   \n");
  EXPECT_NO_THROW(fp = take_fingerprint(procfs::Root::under(root.path())));
  EXPECT_EQ(fp.fields().at("microcode"), "unknown");
}

// With no value in cpuinfo, the sysfs version file is used.
TEST(Fingerprint, MicrocodeWithoutAValueFallsBackToSysfs) {
  schedrig::testing::TempDir root;
  put(root, "proc/cpuinfo", "microcode\t:\n");
  put(root, "sys/devices/system/cpu/cpu0/microcode/version", "0x2b\n");
  EXPECT_EQ(take_fingerprint(procfs::Root::under(root.path())).fields().at("microcode"), "0x2b");
}

// A FIFO in the fake root does not block taking the fingerprint.
TEST(Fingerprint, AFifoInTheRootDoesNotBlock) {
  schedrig::testing::TempDir root;
  put(root, "proc/version", "");
  ASSERT_EQ(::mkfifo(root.file("proc/cmdline").c_str(), 0600), 0);
  ASSERT_EQ(::mkfifo(root.file("proc/cpuinfo").c_str(), 0600), 0);
  std::string cmdline = "x";
  std::string microcode;
  ASSERT_TRUE(schedrig::testing::finishes_within(std::chrono::seconds(5), [&] {
    const auto fp = take_fingerprint(procfs::Root::under(root.path()));
    cmdline = fp.kernel_cmdline();
    microcode = fp.fields().at("microcode");
  })) << "a FIFO blocked take_fingerprint";
  EXPECT_EQ(cmdline, "");
  EXPECT_EQ(microcode, "unknown");
}

}  // namespace
}  // namespace schedrig::runner
