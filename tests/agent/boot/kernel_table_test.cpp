#include "agent/boot/kernel_table.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "common/cli_error.h"
#include "common/kernel_name.h"

namespace schedrig::boot {
namespace {

const procfs::Root kFake = procfs::Root::under("/tmp/fake-root");

KernelTable parse(const std::string& yaml, const procfs::Root& root = kFake) {
  return KernelTable::parse(YAML::Load(yaml)["kernels"], "agent.yaml", root);
}

std::string error_of(const std::string& yaml, const procfs::Root& root = kFake) {
  try {
    parse(yaml, root);
  } catch (const CliError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    return e.what();
  }
  return "(parsed)";
}

TEST(KernelTable, ReadsEachHookWithItsParameters) {
  const KernelTable t = parse(R"(kernels:
  rhel-10.1:
    release: 6.12.0-124.el10.aarch64
    kexec: {image: /boot/vmlinuz-a, initrd: /boot/initrd-a, cmdline: "root=/dev/sda1 ro"}
  rhel-10.2:
    release: 6.12.0-150.el10.aarch64
    grub: "RHEL 10.2"
  slow:
    release: 6.1.0-slow
    test: {antagonist: {cpus: "0-1", duty_pct: 60}}
  plain:
    release: 6.1.0-plain
    test:
)");
  ASSERT_NE(t.find("rhel-10.1"), nullptr);
  const KernelEntry& a = *t.find("rhel-10.1");
  EXPECT_EQ(a.hook, HookKind::kKexec);
  EXPECT_EQ(a.image, "/boot/vmlinuz-a");
  EXPECT_EQ(a.initrd, "/boot/initrd-a");
  EXPECT_EQ(a.cmdline, "root=/dev/sda1 ro");
  EXPECT_EQ(a.line, 2);
  EXPECT_EQ(t.find("rhel-10.2")->hook, HookKind::kGrubReboot);
  EXPECT_EQ(t.find("rhel-10.2")->grub_entry, "RHEL 10.2");
  EXPECT_EQ(t.find("slow")->slowdown.duty_pct, 60u);
  EXPECT_EQ(t.find("slow")->slowdown.cpus, (std::vector<int>{0, 1}));
  EXPECT_EQ(t.find("plain")->slowdown.duty_pct, 0u);
  EXPECT_EQ(t.find("nope"), nullptr);
  EXPECT_EQ(t.running("6.1.0-slow"), t.find("slow"));
  EXPECT_EQ(t.running("6.1.0-other"), nullptr);
  EXPECT_EQ(t.names(), "plain, rhel-10.1, rhel-10.2, slow");

  v1::Hello hello;
  t.add_to(hello);
  ASSERT_EQ(hello.kernels_size(), 4);
  EXPECT_EQ(hello.kernels(1).name(), "rhel-10.1");
  EXPECT_EQ(hello.kernels(1).release(), "6.12.0-124.el10.aarch64");
  EXPECT_EQ(hello.kernels(1).hook(), "kexec");
  EXPECT_EQ(hello.kernels(2).hook(), "grub-reboot");
}

TEST(KernelTable, RefusesWhatCannotBootNamingFileLineAndKernel) {
  EXPECT_EQ(error_of("kernels:\n  a:\n    grub: x\n"),
            "agent.yaml:2: kernels.a: release: is missing (what `uname -r` says once it runs)");
  EXPECT_EQ(error_of("kernels:\n  a:\n    release: r\n"),
            "agent.yaml:2: kernels.a: no boot hook: give one of kexec:, grub:, test:");
  EXPECT_EQ(error_of("kernels:\n  a:\n    release: r\n    grub: x\n    test: {}\n"),
            "agent.yaml:2: kernels.a: two boot hooks (grub, test): give one");
  EXPECT_EQ(error_of("kernels:\n  a:\n    release: r\n    kexec: {image: boot/x, cmdline: c}\n"),
            "agent.yaml:4: kernels.a: kexec.image: 'boot/x' is not an absolute path");
  EXPECT_EQ(error_of("kernels:\n  a:\n    release: r\n    kexec: {image: /boot/x}\n"),
            "agent.yaml:4: kernels.a: kexec: cmdline: is missing (the kernel's command line)");
  EXPECT_EQ(error_of("kernels:\n  a:\n    release: r\n    shell: reboot\n"),
            "agent.yaml:4: kernels.a: unknown key 'shell' (known: release, kexec, grub, test)");
  EXPECT_EQ(error_of("kernels:\n  a:\n    release: \"r\\e[2J\"\n    grub: x\n"),
            "agent.yaml:3: kernels.a: release: 'r\\e[2J' has a control character");
  EXPECT_EQ(error_of("kernels:\n  a:\n    release: two words\n    grub: x\n"),
            "agent.yaml:3: kernels.a: release 'two words' has a space");
  EXPECT_EQ(error_of("kernels:\n  current:\n    release: r\n    grub: x\n"),
            "agent.yaml:2: kernels: 'current' is not a kernel name ([A-Za-z0-9._-], 1..64 bytes, "
            "not 'current')");
  EXPECT_EQ(error_of("kernels:\n  a:\n    release: r\n    test: {antagonist: {duty_pct: 0}}\n"),
            "agent.yaml:4: kernels.a: test.antagonist.duty_pct: '0' is not 1..100");
  EXPECT_EQ(error_of("kernels: [a, b]\n"), "agent.yaml:1: kernels: not a mapping of kernel names");
  EXPECT_EQ(error_of("kernels:\n  a:\n    release: r\n    grub: --help\n"),
            "agent.yaml:4: kernels.a: grub: '--help' starts with '-' (grub-reboot would take it "
            "for an option)");
  EXPECT_EQ(error_of("kernels:\n  a: {release: r, grub: x}\n  b: {release: r, grub: y}\n"),
            "agent.yaml:3: kernels.b: release r is kernels.a's too: a box back from a boot could "
            "not be told apart");
}

TEST(KernelTable, TheTestHookNeedsAFakeRoot) {
  EXPECT_NE(
      error_of("kernels:\n  a:\n    release: r\n    test: {}\n", procfs::Root::under("/tmp/..")),
      "(parsed)");
  EXPECT_EQ(error_of("kernels:\n  a:\n    release: r\n    test: {}\n", procfs::Root::live()),
            "agent.yaml:4: kernels.a: the test hook only simulates a boot on a fake root (set "
            "root: DIR)");
}

TEST(KernelTable, AtMost64Kernels) {
  std::string yaml = "kernels:\n";
  for (int i = 0; i < 65; ++i) yaml += "  k" + std::to_string(i) + ": {release: r, grub: g}\n";
  EXPECT_EQ(error_of(yaml), "agent.yaml:2: kernels: more than 64 kernels");
}

TEST(KernelName, LettersDigitsDotsDashesUnderscoresUpTo64) {
  EXPECT_TRUE(valid_kernel_name("rhel-10.2_rc1"));
  EXPECT_TRUE(valid_kernel_name(std::string(64, 'k')));
  EXPECT_FALSE(valid_kernel_name(std::string(65, 'k')));
  EXPECT_FALSE(valid_kernel_name(""));
  EXPECT_FALSE(valid_kernel_name("current"));
  EXPECT_FALSE(valid_kernel_name("a b"));
  EXPECT_FALSE(valid_kernel_name("../x"));
  EXPECT_FALSE(valid_kernel_name("a;reboot"));
}

}  // namespace
}  // namespace schedrig::boot
