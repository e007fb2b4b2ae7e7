// The kernels this box can boot, from the agent configuration's `kernels:`
// section (docs/nightly.md "Boot hooks"). The host sends only a kernel's
// name (Boot); how the box boots it — image, initrd, command line, GRUB
// entry, which hook — is only ever read from here, never from the network.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/procfs/root.h"
#include "schedrig/v1/hello.pb.h"

namespace YAML {
class Node;
}  // namespace YAML

namespace schedrig::boot {

// Which hook boots a kernel (boot_hook.h).
enum class HookKind { kKexec, kGrubReboot, kTest };

// "kexec", "grub-reboot", "test".
const char* hook_name(HookKind k);

// An antagonist the test hook's kernel runs beside every workload, as part
// of it (docs/nightly.md "The test hook"): a slower kernel, simulated.
struct TestSlowdown {
  std::vector<int> cpus;  // PU OS indexes; empty = the run's own PUs
  unsigned duty_pct = 0;  // 1..100 busy share of each period; 0 = none
};

// One kernel: its name, what `uname -r` says once it runs, and its hook's
// parameters (only those of `hook` are set).
struct KernelEntry {
  std::string name;     // common/kernel_name.h: [A-Za-z0-9._-], 1..64 bytes, not "current"
  std::string release;  // printable, no spaces, 1..256 bytes
  HookKind hook = HookKind::kKexec;
  std::string image, initrd, cmdline;  // kexec: absolute paths; cmdline <= 4096 bytes
  std::string grub_entry;              // grub-reboot: the menu entry (title or id)
  TestSlowdown slowdown;               // test
  int line = 0;                        // where the config file gives it
};

class KernelTable {
 public:
  KernelTable() = default;
  // Reads a `kernels:` section: NAME: {release: R, and exactly one of
  // kexec: {image: P, initrd: P, cmdline: S} | grub: ENTRY | test: {} or
  // test: {antagonist: {cpus: L, duty_pct: P}}}. The test hook needs a fake
  // `root` (it rewrites the tree's osrelease and boot_id). Throws
  // CliError(kUsage) "F:LINE: kernels.NAME: REASON" for a bad name, a
  // missing or bad release, no hook or two, an unknown key, a relative path,
  // a control character, more than 64 kernels.
  static KernelTable parse(const YAML::Node& section, const std::string& file,
                           const procfs::Root& root);

  // The entry named `name`; nullptr when the configuration lists none.
  const KernelEntry* find(const std::string& name) const;
  // The entry whose release is `release` (the kernel the box runs now, when
  // the configuration lists it); nullptr when none.
  const KernelEntry* running(const std::string& release) const;
  // Every name, in order, for messages ("" when none).
  std::string names() const;
  bool empty() const { return kernels_.empty(); }
  // Hello's kernels: name, release and hook of each.
  void add_to(schedrig::v1::Hello& hello) const;

 private:
  std::map<std::string, KernelEntry> kernels_;
};

inline constexpr std::size_t kMaxKernels = 64;

}  // namespace schedrig::boot
