// Booting a kernel this box's configuration lists (docs/nightly.md "Boot
// hooks"). A hook is a fixed sequence of commands whose every word comes
// from the agent's configuration (kernel_table.h) and from constants here,
// never from the host: the host only names the kernel.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "agent/boot/kernel_table.h"
#include "common/procfs/root.h"

namespace schedrig::boot {

// A hook could not boot: names the hook, the kernel, the step and the
// command's own words ("kexec: rhel-10.2: /usr/sbin/kexec --load ...:
// exited with status 1: Cannot open /boot/x: No such file or directory").
class BootError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One command a hook runs: the binary (absolute) and its arguments after it.
struct BootCommand {
  std::string binary;
  std::vector<std::string> args;
};

// The commands `k`'s hook runs, in order:
//   kexec:       kexec --load IMAGE [--initrd=INITRD] --command-line=CMDLINE
//                (kexec-tools, kexec(8)), then systemctl kexec (stops
//                services cleanly, then executes the loaded kernel);
//   grub-reboot: grub-reboot ENTRY (the next boot only, grub-reboot(8)),
//                then systemctl reboot;
//   test:        none (boot_kernel writes the fake tree).
std::vector<BootCommand> hook_commands(const KernelEntry& k);

// Boots `k`. A real hook checks each binary and the kexec image and initrd
// (root-owned, writable by no one else: agent/tools/tool_binary.h), then
// runs its commands on `cpus` with a fixed environment, each within 120 s;
// it returns once the last one (systemctl) has asked for the reboot. The
// test hook simulates a boot on the fake tree `root`: it writes a new
// ROOT/proc/sys/kernel/random/boot_id, then ROOT/proc/sys/kernel/osrelease
// (k.release), following no link below the root and refusing one planted at
// a file's name (common/trusted_dir.h, O_EXCL). kexec runs on the image and
// initrd as the trust check resolved them. Throws BootError.
void boot_kernel(const KernelEntry& k, const procfs::Root& root, const std::vector<int>& cpus);

}  // namespace schedrig::boot
