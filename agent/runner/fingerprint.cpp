#include "agent/runner/fingerprint.h"

#include <filesystem>
#include <fstream>

#include "common/ids.h"

namespace schedrig::runner {
namespace {

// First line of a small sysfs/procfs file, trimmed; empty when unreadable.
std::string read_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (in) std::getline(in, line);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\n')) line.pop_back();
  return line;
}

void add_field(schedrig::v1::Fingerprint& fp, const std::string& name, const std::string& path) {
  std::string value = read_line(path);
  if (!value.empty()) (*fp.mutable_fields())[name] = value;
}

void add_mitigations(schedrig::v1::Fingerprint& fp, const std::string& root) {
  std::error_code ec;
  const std::string dir = root + "/sys/devices/system/cpu/vulnerabilities";
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    add_field(fp, "vulnerability." + entry.path().filename().string(), entry.path().string());
  }
}

}  // namespace

schedrig::v1::Fingerprint take_fingerprint(const std::string& root) {
  schedrig::v1::Fingerprint fp;
  fp.set_kernel_release(kernel_release());
  fp.set_kernel_cmdline(read_line(root + "/proc/cmdline"));
  fp.set_sched_features(read_line(root + "/sys/kernel/debug/sched/features"));
  const std::string cpu = root + "/sys/devices/system/cpu";
  add_field(fp, "cpufreq_governor", cpu + "/cpu0/cpufreq/scaling_governor");
  add_field(fp, "cpufreq_boost", cpu + "/cpufreq/boost");
  add_field(fp, "smt_control", cpu + "/smt/control");
  add_field(fp, "thp_enabled", root + "/sys/kernel/mm/transparent_hugepage/enabled");
  add_field(fp, "isolcpus", cpu + "/isolated");
  add_field(fp, "nohz_full", cpu + "/nohz_full");
  add_field(fp, "autogroup", root + "/proc/sys/kernel/sched_autogroup_enabled");
  add_mitigations(fp, root);
  return fp;
}

}  // namespace schedrig::runner
