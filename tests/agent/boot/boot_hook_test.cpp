#include "agent/boot/boot_hook.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "common/ids.h"
#include "tests/support/run_command.h"

namespace schedrig::boot {
namespace {

using testing::TempDir;

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

KernelEntry test_kernel() {
  KernelEntry k;
  k.name = "fake-b";
  k.release = "6.1.0-fake-b";
  k.hook = HookKind::kTest;
  return k;
}

TEST(BootHook, KexecLoadsFromTheConfigThenAsksSystemdToExecuteIt) {
  KernelEntry k;
  k.name = "rhel-10.2";
  k.hook = HookKind::kKexec;
  k.image = "/boot/vmlinuz-x";
  k.initrd = "/boot/initrd-x";
  k.cmdline = "root=/dev/sda1 ro quiet";
  const std::vector<BootCommand> c = hook_commands(k);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].binary, "/usr/sbin/kexec");
  EXPECT_EQ(c[0].args,
            (std::vector<std::string>{"--load", "/boot/vmlinuz-x", "--initrd=/boot/initrd-x",
                                      "--command-line=root=/dev/sda1 ro quiet"}));
  EXPECT_EQ(c[1].binary, "/usr/bin/systemctl");
  EXPECT_EQ(c[1].args, (std::vector<std::string>{"kexec"}));
  k.initrd.clear();
  EXPECT_EQ(hook_commands(k)[0].args.size(), 3u);  // no --initrd without one
}

TEST(BootHook, GrubRebootPicksTheEntryForTheNextBootOnly) {
  KernelEntry k;
  k.hook = HookKind::kGrubReboot;
  k.grub_entry = "Debian GNU/Linux, with Linux 6.1.0-13-amd64";
  const std::vector<BootCommand> c = hook_commands(k);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].binary, "/usr/sbin/grub-reboot");
  EXPECT_EQ(c[0].args, std::vector<std::string>{k.grub_entry});  // one argv word, no shell
  EXPECT_EQ(c[1].args, (std::vector<std::string>{"reboot"}));
}

// The test hook rewrites the fake tree's osrelease and boot_id: what the
// agent reads back as its kernel and boot once restarted.
TEST(BootHook, TheTestHookGivesTheFakeTreeANewKernelAndBoot) {
  TempDir t;
  const procfs::Root root = procfs::Root::under(t.path());
  const KernelEntry k = test_kernel();
  EXPECT_EQ(kernel_release(root), kernel_release());  // no osrelease yet: uname's
  EXPECT_EQ(current_boot_id(root), read_boot_id());
  boot_kernel(k, root, {0});
  EXPECT_EQ(read(t.file("proc/sys/kernel/osrelease")), "6.1.0-fake-b");
  EXPECT_EQ(kernel_release(root), "6.1.0-fake-b");
  const std::string first = current_boot_id(root);
  EXPECT_TRUE(is_uuid(first));
  EXPECT_NE(first, read_boot_id());
  boot_kernel(k, root, {0});
  EXPECT_NE(current_boot_id(root), first);  // every boot a new boot_id
  EXPECT_THROW(boot_kernel(k, procfs::Root::live(), {0}), BootError);
}

// A link planted at the new file's name (symbolic or hard) is removed, not
// written through: what it points at keeps its bytes.
TEST(BootHook, TheTestHookNeverWritesThroughALinkAtItsFile) {
  TempDir t;
  std::filesystem::create_directories(t.file("proc/sys/kernel"));
  const std::string victim = t.file("victim");
  { std::ofstream(victim) << "keep\n"; }
  ASSERT_EQ(::symlink(victim.c_str(), t.file("proc/sys/kernel/osrelease.new").c_str()), 0);
  std::filesystem::create_directories(t.file("proc/sys/kernel/random"));
  ASSERT_EQ(::link(victim.c_str(), t.file("proc/sys/kernel/random/boot_id.new").c_str()), 0);
  boot_kernel(test_kernel(), procfs::Root::under(t.path()), {0});
  EXPECT_EQ(read(victim), "keep");
  EXPECT_EQ(read(t.file("proc/sys/kernel/osrelease")), "6.1.0-fake-b");
}

// A directory below the root that is a link (out of the tree) is refused
// and nothing is written there.
TEST(BootHook, TheTestHookFollowsNoLinkBelowTheRoot) {
  TempDir t, outside;
  std::filesystem::create_directories(t.file("proc/sys/kernel"));
  ASSERT_EQ(::symlink(outside.path().c_str(), t.file("proc/sys/kernel/random").c_str()), 0);
  EXPECT_THROW(boot_kernel(test_kernel(), procfs::Root::under(t.path()), {0}), BootError);
  EXPECT_TRUE(std::filesystem::is_empty(outside.path()));
  EXPECT_FALSE(std::filesystem::exists(t.file("proc/sys/kernel/osrelease")));  // boot id first
}

TEST(BootHook, AMissingKexecImageIsRefusedBeforeAnythingRuns) {
  KernelEntry k;
  k.name = "rhel-10.2";
  k.hook = HookKind::kKexec;
  k.image = "/nonexistent/vmlinuz";
  k.cmdline = "ro";
  try {
    boot_kernel(k, procfs::Root::live(), {0});
    FAIL() << "booted";
  } catch (const BootError& e) {
    EXPECT_EQ(
        std::string(e.what()).rfind("kexec: rhel-10.2: kexec image: file /nonexistent/vmlinuz: "
                                    "No such file or directory",
                                    0),
        0u)
        << e.what();
  }
}

}  // namespace
}  // namespace schedrig::boot
