#include "agent/boot/boot_hook.h"

#include <system_error>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "agent/tools/tool_binary.h"
#include "agent/tools/tool_error.h"
#include "agent/tools/tool_process.h"
#include "agent/tools/tool_work_dir.h"
#include "common/ids.h"
#include "common/printable.h"
#include "common/replace_file.h"
#include "common/trusted_dir.h"
#include "common/unique_fd.h"

namespace schedrig::boot {
namespace {

using namespace std::chrono_literals;

// Debian's and RHEL's paths (kexec-tools, systemd, grub2-common).
constexpr const char* kKexec = "/usr/sbin/kexec";
constexpr const char* kSystemctl = "/usr/bin/systemctl";
constexpr const char* kGrubReboot = "/usr/sbin/grub-reboot";

[[noreturn]] void fail(const KernelEntry& k, const std::string& why) {
  throw BootError(fmt::format("{}: {}: {}", hook_name(k.hook), k.name, why));
}

std::string command_text(const BootCommand& c) {
  return printable(fmt::format("{} {}", c.binary, fmt::join(c.args, " ")));
}

void run_command(const KernelEntry& k, const BootCommand& c, const std::vector<int>& cpus) {
  tools::ToolLaunch launch;
  launch.tool = hook_name(k.hook);
  const tools::ToolWorkDir dir(launch.tool);
  launch.binary = tools::trusted_tool_binary(launch.tool, c.binary);
  launch.argv = c.args;
  launch.cpus = cpus;
  launch.work_dir = dir.path();
  launch.timeout = 120s;
  launch.max_output_bytes = 64 * 1024;
  const tools::ToolExit e = tools::run_tool_process(launch);
  if (e.exit_code == 0) return;
  std::string words = e.stderr_text.empty() ? e.stdout_text : e.stderr_text;
  if (words.size() > 1024) words.resize(1024);
  fail(k, fmt::format("{}: {}{}{}", command_text(c), tools::describe_exit(e),
                      words.empty() ? "" : ": ", printable(words)));
}

// Writes `text` as the whole of ROOT/DIR/NAME: no link below the root is
// followed (each directory opened from the one before, O_NOFOLLOW:
// common/trusted_dir.h), and none planted at the file's name is written
// through (common/replace_file.h).
void write_tree_file(const KernelEntry& k, const procfs::Root& root, const std::string& dir,
                     const std::string& name, const std::string& text) {
  UniqueFd dfd;
  try {
    dfd = UniqueFd(open_trusted_dir_under(root.dir().string(), dir));
    replace_file_at(dfd.get(), name, text + "\n");
  } catch (const UntrustedDir& e) {
    fail(k, e.what());
  } catch (const std::system_error& e) {
    fail(k, fmt::format("cannot write under {}/{}: {}", root.dir().string(), dir, e.what()));
  }
}

// `k` with its image and initrd as the trust check resolved them: what is
// checked is what kexec loads (a link in the configured path cannot be
// repointed in between).
KernelEntry with_trusted_kexec_files(const KernelEntry& k) {
  KernelEntry out = k;
  try {
    out.image = tools::trusted_root_file("kexec image", k.image, false);
    if (!k.initrd.empty()) out.initrd = tools::trusted_root_file("kexec initrd", k.initrd, false);
  } catch (const tools::ToolArgsError& e) {
    fail(k, e.what());
  }
  return out;
}

}  // namespace

std::vector<BootCommand> hook_commands(const KernelEntry& k) {
  switch (k.hook) {
    case HookKind::kKexec: {
      BootCommand load{kKexec, {"--load", k.image}};
      if (!k.initrd.empty()) load.args.push_back("--initrd=" + k.initrd);
      load.args.push_back("--command-line=" + k.cmdline);
      return {load, {kSystemctl, {"kexec"}}};
    }
    case HookKind::kGrubReboot:
      return {{kGrubReboot, {k.grub_entry}}, {kSystemctl, {"reboot"}}};
    case HookKind::kTest:
      break;
  }
  return {};
}

void boot_kernel(const KernelEntry& k, const procfs::Root& root, const std::vector<int>& cpus) {
  if (k.hook == HookKind::kTest) {
    if (root.is_live()) fail(k, "the test hook only simulates a boot on a fake root");
    // The boot id first: a failure leaves the tree on the kernel it was.
    write_tree_file(k, root, "proc/sys/kernel/random", "boot_id", make_uuid_v4());
    write_tree_file(k, root, "proc/sys/kernel", "osrelease", k.release);
    return;
  }
  const KernelEntry checked = k.hook == HookKind::kKexec ? with_trusted_kexec_files(k) : k;
  try {
    for (const BootCommand& c : hook_commands(checked)) run_command(k, c, cpus);
  } catch (const tools::ToolArgsError& e) {
    fail(k, e.what());
  } catch (const tools::ToolRunError& e) {
    fail(k, e.what());
  }
}

}  // namespace schedrig::boot
