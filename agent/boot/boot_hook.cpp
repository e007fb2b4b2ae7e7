#include "agent/boot/boot_hook.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "agent/tools/tool_binary.h"
#include "agent/tools/tool_error.h"
#include "agent/tools/tool_process.h"
#include "agent/tools/tool_work_dir.h"
#include "common/ids.h"
#include "common/printable.h"

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

// Writes `text` as the whole of ROOT/`rel`: a temporary file beside it,
// then rename(2); never through a link.
void write_tree_file(const KernelEntry& k, const procfs::Root& root, const char* rel,
                     const std::string& text) {
  const std::filesystem::path path = root.path(rel);
  std::error_code ec;
  std::filesystem::create_directories(path.parent_path(), ec);
  const std::string tmp = path.string() + ".new";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) fail(k, fmt::format("cannot write {}: {}", tmp, std::strerror(errno)));
  const std::string line = text + "\n";
  const bool ok = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
  ::close(fd);
  if (!ok || ::rename(tmp.c_str(), path.c_str()) != 0)
    fail(k, fmt::format("cannot write {}: {}", path.string(), std::strerror(errno)));
}

void check_kexec_files(const KernelEntry& k) {
  try {
    tools::trusted_root_file("kexec image", k.image, false);
    if (!k.initrd.empty()) tools::trusted_root_file("kexec initrd", k.initrd, false);
  } catch (const tools::ToolArgsError& e) {
    fail(k, e.what());
  }
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
    write_tree_file(k, root, "proc/sys/kernel/osrelease", k.release);
    write_tree_file(k, root, "proc/sys/kernel/random/boot_id", make_uuid_v4());
    return;
  }
  if (k.hook == HookKind::kKexec) check_kexec_files(k);
  try {
    for (const BootCommand& c : hook_commands(k)) run_command(k, c, cpus);
  } catch (const tools::ToolArgsError& e) {
    fail(k, e.what());
  } catch (const tools::ToolRunError& e) {
    fail(k, e.what());
  }
}

}  // namespace schedrig::boot
