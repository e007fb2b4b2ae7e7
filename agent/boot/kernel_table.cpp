#include "agent/boot/kernel_table.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/yaml.h>

#include "common/cli_error.h"
#include "common/cpulist.h"
#include "common/kernel_name.h"
#include "common/parse_whole.h"
#include "common/printable.h"
#include "common/yaml_line.h"

namespace schedrig::boot {
namespace {

constexpr std::size_t kMaxReleaseBytes = 256;
constexpr std::size_t kMaxTextBytes = 4096;

// Reads one kernel's entry; every error is "F:LINE: kernels.NAME: ...".
class EntryReader {
 public:
  EntryReader(const std::string& file, const std::string& name, const procfs::Root& root)
      : file_(file), name_(name), root_(root) {}

  KernelEntry read(const YAML::Node& node, int line) {
    KernelEntry k;
    k.name = name_;
    k.line = line;
    if (!node.IsMap()) fail(line, "not a mapping (release: and one of kexec:, grub:, test:)");
    std::set<std::string> hooks;
    for (const auto& kv : node) {
      const std::string key = kv.first.Scalar();
      const int at = yaml_line(kv.first);
      if (key == "release") {
        k.release = scalar(kv.second, "release", kMaxReleaseBytes, at);
        if (k.release.find_first_of(" \t") != std::string::npos)
          fail(at, fmt::format("release '{}' has a space", printable(k.release)));
      } else if (key == "kexec") {
        read_kexec(kv.second, at, k);
        hooks.insert(key);
      } else if (key == "grub") {
        k.hook = HookKind::kGrubReboot;
        k.grub_entry = scalar(kv.second, "grub", kMaxReleaseBytes, at);
        if (k.grub_entry.front() == '-')
          fail(at, fmt::format("grub: '{}' starts with '-' (grub-reboot would take it for an "
                               "option)",
                               printable(k.grub_entry)));
        hooks.insert(key);
      } else if (key == "test") {
        read_test(kv.second, at, k);
        hooks.insert(key);
      } else {
        fail(at,
             fmt::format("unknown key '{}' (known: release, kexec, grub, test)", printable(key)));
      }
    }
    if (k.release.empty()) fail(line, "release: is missing (what `uname -r` says once it runs)");
    if (hooks.size() != 1) {
      fail(line, hooks.empty()
                     ? "no boot hook: give one of kexec:, grub:, test:"
                     : fmt::format("two boot hooks ({}): give one", fmt::join(hooks, ", ")));
    }
    return k;
  }

 private:
  [[noreturn]] void fail(int line, const std::string& why) const {
    throw CliError(ErrorKind::kUsage,
                   fmt::format("{}:{}: kernels.{}: {}", file_, line, printable(name_), why));
  }

  std::string scalar(const YAML::Node& node, const std::string& key, std::size_t max, int line) {
    if (!node.IsScalar()) fail(line, fmt::format("{}: not a single value", key));
    const std::string& v = node.Scalar();
    if (v.empty() || v.size() > max)
      fail(line, fmt::format("{}: want 1..{} bytes, got {}", key, max, v.size()));
    if (printable(v) != v || v.find('\t') != std::string::npos)
      fail(line, fmt::format("{}: '{}' has a control character", key, printable(v)));
    return v;
  }

  std::string path(const YAML::Node& node, const std::string& key, int line) {
    std::string p = scalar(node, key, kMaxTextBytes, line);
    if (p.front() != '/') fail(line, fmt::format("{}: '{}' is not an absolute path", key, p));
    return p;
  }

  void read_kexec(const YAML::Node& node, int line, KernelEntry& k) {
    k.hook = HookKind::kKexec;
    if (!node.IsMap()) fail(line, "kexec: want {image: PATH, initrd: PATH, cmdline: TEXT}");
    for (const auto& kv : node) {
      const std::string key = kv.first.Scalar();
      const int at = yaml_line(kv.first);
      if (key == "image") {
        k.image = path(kv.second, "kexec.image", at);
      } else if (key == "initrd") {
        k.initrd = path(kv.second, "kexec.initrd", at);
      } else if (key == "cmdline") {
        k.cmdline = scalar(kv.second, "kexec.cmdline", kMaxTextBytes, at);
      } else {
        fail(at, fmt::format("kexec: unknown key '{}' (known: image, initrd, cmdline)",
                             printable(key)));
      }
    }
    if (k.image.empty()) fail(line, "kexec: image: is missing");
    if (k.cmdline.empty()) fail(line, "kexec: cmdline: is missing (the kernel's command line)");
  }

  void read_test(const YAML::Node& node, int line, KernelEntry& k) {
    k.hook = HookKind::kTest;
    std::error_code ec;
    if (root_.is_live() || std::filesystem::weakly_canonical(root_.dir(), ec) == "/")
      fail(line, "the test hook only simulates a boot on a fake root (set root: DIR)");
    if (node.IsNull()) return;
    if (!node.IsMap()) fail(line, "test: want {} or {antagonist: {cpus: L, duty_pct: P}}");
    for (const auto& kv : node) {
      const int at = yaml_line(kv.first);
      if (kv.first.Scalar() != "antagonist")
        fail(at, fmt::format("test: unknown key '{}' (known: antagonist)",
                             printable(kv.first.Scalar())));
      read_slowdown(kv.second, at, k.slowdown);
    }
  }

  void read_slowdown(const YAML::Node& node, int line, TestSlowdown& s) {
    if (!node.IsMap()) fail(line, "test.antagonist: want {cpus: L, duty_pct: P}");
    for (const auto& kv : node) {
      const std::string key = kv.first.Scalar();
      const int at = yaml_line(kv.first);
      const std::string v = scalar(kv.second, "test.antagonist." + key, kMaxTextBytes, at);
      if (key == "cpus") {
        try {
          s.cpus = parse_cpulist(v);
        } catch (const std::invalid_argument& e) {
          fail(at, fmt::format("test.antagonist.cpus: {}", e.what()));
        }
      } else if (key == "duty_pct") {
        const auto pct = try_parse_whole<unsigned>(v);
        if (!pct || *pct < 1 || *pct > 100)
          fail(at, fmt::format("test.antagonist.duty_pct: '{}' is not 1..100", printable(v)));
        s.duty_pct = *pct;
      } else {
        fail(at, fmt::format("test.antagonist: unknown key '{}' (known: cpus, duty_pct)",
                             printable(key)));
      }
    }
    if (s.duty_pct == 0) fail(line, "test.antagonist: duty_pct: is missing");
  }

  const std::string& file_;
  const std::string& name_;
  const procfs::Root& root_;
};

}  // namespace

const char* hook_name(HookKind k) {
  switch (k) {
    case HookKind::kKexec:
      return "kexec";
    case HookKind::kGrubReboot:
      return "grub-reboot";
    case HookKind::kTest:
      return "test";
  }
  return "?";
}

KernelTable KernelTable::parse(const YAML::Node& section, const std::string& file,
                               const procfs::Root& root) {
  KernelTable t;
  const int line = yaml_line(section);
  if (section.IsNull()) return t;
  if (!section.IsMap())
    throw CliError(ErrorKind::kUsage,
                   fmt::format("{}:{}: kernels: not a mapping of kernel names", file, line));
  if (section.size() > kMaxKernels)
    throw CliError(ErrorKind::kUsage,
                   fmt::format("{}:{}: kernels: more than {} kernels", file, line, kMaxKernels));
  for (const auto& kv : section) {
    const std::string name = kv.first.Scalar();
    const int at = yaml_line(kv.first);
    if (!valid_kernel_name(name))
      throw CliError(ErrorKind::kUsage,
                     fmt::format("{}:{}: kernels: '{}' is not a kernel name ([A-Za-z0-9._-], "
                                 "1..64 bytes, not 'current')",
                                 file, at, printable(name)));
    KernelEntry k = EntryReader(file, name, root).read(kv.second, at);
    if (const KernelEntry* same = t.running(k.release))
      throw CliError(ErrorKind::kUsage,
                     fmt::format("{}:{}: kernels.{}: release {} is kernels.{}'s too: a box "
                                 "back from a boot could not be told apart",
                                 file, at, name, printable(k.release), same->name));
    if (!t.kernels_.emplace(name, std::move(k)).second)
      throw CliError(ErrorKind::kUsage,
                     fmt::format("{}:{}: kernels.{}: given twice", file, at, name));
  }
  return t;
}

const KernelEntry* KernelTable::find(const std::string& name) const {
  auto it = kernels_.find(name);
  return it == kernels_.end() ? nullptr : &it->second;
}

const KernelEntry* KernelTable::running(const std::string& release) const {
  for (const auto& [name, k] : kernels_) {
    if (k.release == release) return &k;
  }
  return nullptr;
}

std::string KernelTable::names() const {
  std::vector<std::string> out;
  for (const auto& [name, k] : kernels_) out.push_back(name);
  return fmt::format("{}", fmt::join(out, ", "));
}

void KernelTable::add_to(schedrig::v1::Hello& hello) const {
  for (const auto& [name, k] : kernels_) {
    auto* out = hello.add_kernels();
    out->set_name(name);
    out->set_release(k.release);
    out->set_hook(hook_name(k.hook));
  }
}

}  // namespace schedrig::boot
