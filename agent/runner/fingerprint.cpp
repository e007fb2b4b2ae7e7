#include "agent/runner/fingerprint.h"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "agent/knobs/persisted_knobs.h"
#include "common/ids.h"
#include "common/procfs/read_file.h"

namespace schedrig::runner {
namespace {

namespace fs = std::filesystem;

constexpr const char* kUnknown = "unknown";

// First line of a small sysfs/procfs file, trimmed; "" when unreadable.
std::string read_line(const fs::path& path) {
  const std::optional<std::string> text = procfs::try_read_small_file(path);
  std::string line(text ? procfs::first_line(*text) : std::string_view());
  while (!line.empty() && (line.back() == ' ' || line.back() == '\n')) line.pop_back();
  return line;
}

void add_field(v1::Fingerprint& fp, const std::string& name, const fs::path& path) {
  std::string value = read_line(path);
  (*fp.mutable_fields())[name] = value.empty() ? kUnknown : value;
}

// FNV-1a 64 of a file's bytes as hex: enough to tell two configs apart.
std::string file_hash(const fs::path& path) {
  const std::optional<std::string> bytes = procfs::try_read_small_file(path);
  if (!bytes) return "";
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : *bytes) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return fmt::format("fnv1a64:{:016x}", h);
}

// The release `root` runs (a fake tree's osrelease when it has one).
std::string release_of(const procfs::Root& root) {
  try {
    return kernel_release(root);
  } catch (const std::runtime_error&) {
    return kUnknown;
  }
}

// The kernel config: /proc/config.gz (compressed bytes hashed as they are),
// else /boot/config-RELEASE.
std::string config_hash(const procfs::Root& root) {
  std::string h = file_hash(root.path("proc/config.gz"));
  if (h.empty()) h = file_hash(root.path("boot/config-" + release_of(root)));
  return h.empty() ? kUnknown : h;
}

// The "microcode : 0x..." line of /proc/cpuinfo (x86), else the sysfs file.
std::string microcode(const procfs::Root& root) {
  const std::string cpuinfo = procfs::try_read_small_file(root.path("proc/cpuinfo")).value_or("");
  for (std::string_view rest = cpuinfo; !rest.empty();) {
    const std::string line(procfs::first_line(rest));
    rest.remove_prefix(std::min(rest.size(), line.size() + 1));
    if (line.rfind("microcode", 0) == 0) {
      auto colon = line.find(':');
      if (colon == std::string::npos) continue;
      // "microcode :" with no value: fall back to the sysfs file.
      const auto value = line.find_first_not_of(" \t", colon + 1);
      if (value == std::string::npos) break;
      return line.substr(value);
    }
  }
  std::string v = read_line(root.path("sys/devices/system/cpu/cpu0/microcode/version"));
  return v.empty() ? kUnknown : v;
}

void add_mitigations(v1::Fingerprint& fp, const procfs::Root& root) {
  std::error_code ec;
  const fs::path dir = root.path("sys/devices/system/cpu/vulnerabilities");
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    add_field(fp, "vulnerability." + entry.path().filename().string(), entry.path());
  }
  if (ec) (*fp.mutable_fields())["vulnerabilities"] = kUnknown;
}

}  // namespace

v1::Fingerprint take_fingerprint(const procfs::Root& root) {
  v1::Fingerprint fp;
  fp.set_kernel_release(release_of(root));
  fp.set_kernel_cmdline(read_line(root.path("proc/cmdline")));
  fp.set_sched_features(read_line(root.path("sys/kernel/debug/sched/features")));
  auto& f = *fp.mutable_fields();
  const fs::path cpu = root.path("sys/devices/system/cpu");
  f["kernel_config"] = config_hash(root);
  add_field(fp, "cpufreq_driver", cpu / "cpu0/cpufreq/scaling_driver");
  add_field(fp, "cpufreq_governor", cpu / "cpu0/cpufreq/scaling_governor");
  add_field(fp, "cpufreq_boost", cpu / "cpufreq/boost");
  add_field(fp, "smt_control", cpu / "smt/control");
  add_field(fp, "thp_enabled", root.path("sys/kernel/mm/transparent_hugepage/enabled"));
  add_field(fp, "isolcpus", cpu / "isolated");
  add_field(fp, "nohz_full", cpu / "nohz_full");
  add_field(fp, "autogroup", root.path("proc/sys/kernel/sched_autogroup_enabled"));
  f["microcode"] = microcode(root);
  if (fp.sched_features().empty()) f["sched_features"] = kUnknown;
  f["persisted_knobs"] = knobs::persisted_knobs_text(knobs::persisted_knobs(root));
  add_mitigations(fp, root);
  return fp;
}

}  // namespace schedrig::runner
