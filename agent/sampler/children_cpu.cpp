#include "agent/sampler/children_cpu.h"

#include <string>

#include "agent/sampler/proc_stat.h"
#include "agent/sampler/text_scan.h"
#include "common/parse_whole.h"

namespace schedrig::sampler {
namespace {

// Fields after the comm's ')': field 3 (state) is index 0, so cutime
// (field 16) is index 13 and cstime (17) index 14.
constexpr std::size_t kCutimeIndex = 13;
constexpr std::size_t kCstimeIndex = 14;

}  // namespace

std::optional<std::uint64_t> parse_children_cpu_ns(std::string_view text, long ticks_per_s) {
  const auto fields = stat_fields_after_comm(text);
  if (fields.size() <= kCstimeIndex || ticks_per_s <= 0) return std::nullopt;
  const auto cutime = try_parse_whole<std::uint64_t>(fields[kCutimeIndex]);
  const auto cstime = try_parse_whole<std::uint64_t>(fields[kCstimeIndex]);
  if (!cutime || !cstime) return std::nullopt;
  const auto ticks = static_cast<double>(*cutime) + static_cast<double>(*cstime);
  return static_cast<std::uint64_t>(ticks * 1e9 / static_cast<double>(ticks_per_s));
}

ChildrenCpuReader::ChildrenCpuReader(procfs::Root root) : root_(std::move(root)), hz_(user_hz()) {}

void ChildrenCpuReader::watch(const std::vector<procfs::TaskId>& tasks) {
  std::map<pid_t, procfs::FileReader> next;
  for (const procfs::TaskId& task : tasks) {
    if (next.count(task.pid)) continue;
    auto it = files_.find(task.pid);
    if (it != files_.end()) {
      next.emplace(task.pid, std::move(it->second));
      continue;
    }
    next.emplace(task.pid,
                 procfs::FileReader(root_.path("proc/" + std::to_string(task.pid) + "/stat")));
  }
  files_ = std::move(next);
}

std::map<pid_t, std::uint64_t> ChildrenCpuReader::read() {
  std::map<pid_t, std::uint64_t> out;
  for (auto& [pid, file] : files_) {
    std::string_view text;
    if (!file.read(text)) continue;
    if (auto ns = parse_children_cpu_ns(text, hz_)) out.emplace(pid, *ns);
  }
  return out;
}

}  // namespace schedrig::sampler
