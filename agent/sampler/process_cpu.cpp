#include "agent/sampler/process_cpu.h"

#include <dirent.h>

#include <map>
#include <memory>
#include <string>
#include <utility>

#include "agent/sampler/proc_stat.h"
#include "agent/sampler/text_scan.h"
#include "common/parse_whole.h"
#include "common/procfs/file_reader.h"

namespace schedrig::sampler {
namespace {

// Indexes of the fields after the comm's ')': field 3 (state) is index 0.
constexpr std::size_t kPpid = 1, kFlags = 6, kUtime = 11, kCstime = 14, kStarttime = 19;
constexpr unsigned long long kPfKthread = 0x00200000;  // include/linux/sched.h
// Ancestors looked at before a process counts as not the agent's.
constexpr int kMaxDepth = 64;
// A stat line is a few hundred bytes (comm is at most 64).
constexpr std::size_t kMaxStatBytes = 4096;

using Key = std::pair<pid_t, std::uint64_t>;  // pid, starttime

}  // namespace

std::optional<ProcessCpu> parse_process_cpu(pid_t pid, std::string_view stat_text,
                                            long ticks_per_s) {
  const auto fields = stat_fields_after_comm(stat_text);
  if (fields.size() <= kStarttime || ticks_per_s <= 0) return std::nullopt;
  ProcessCpu p;
  p.pid = pid;
  const auto ppid = try_parse_whole<pid_t>(fields[kPpid]);
  const auto flags = try_parse_whole<unsigned long long>(fields[kFlags]);
  const auto start = try_parse_whole<std::uint64_t>(fields[kStarttime]);
  if (!ppid || !flags || !start) return std::nullopt;
  p.ppid = *ppid;
  p.kernel_thread = (*flags & kPfKthread) != 0;
  p.start_ticks = *start;
  double ticks = 0;
  for (std::size_t i = kUtime; i <= kCstime; ++i) {
    const auto t = try_parse_whole<std::uint64_t>(fields[i]);
    if (!t) return std::nullopt;
    ticks += static_cast<double>(*t);
  }
  p.cpu_ns = static_cast<std::uint64_t>(ticks * 1e9 / static_cast<double>(ticks_per_s));
  return p;
}

std::vector<ProcessCpu> scan_processes(const procfs::Root& root, std::size_t max_processes) {
  std::vector<ProcessCpu> out;
  const std::string proc = root.path("proc").string();
  std::unique_ptr<DIR, int (*)(DIR*)> dir(::opendir(proc.c_str()), ::closedir);
  if (!dir) return out;
  const long hz = user_hz();
  while (const dirent* e = ::readdir(dir.get())) {
    if (out.size() >= max_processes) break;
    const auto pid = try_parse_whole<pid_t>(e->d_name);
    if (!pid || *pid <= 0) continue;
    procfs::FileReader file(proc + "/" + e->d_name + "/stat", kMaxStatBytes);
    std::string_view text;
    if (!file.read(text)) continue;  // ended meanwhile
    if (auto p = parse_process_cpu(*pid, text, hz)) out.push_back(*p);
  }
  return out;
}

namespace {

// True when `pid` is `own` or one of its descendants, by the parents in `parent_of`.
bool descends_from(pid_t pid, pid_t own, const std::map<pid_t, pid_t>& parent_of) {
  for (int depth = 0; depth < kMaxDepth && pid > 0; ++depth) {
    if (pid == own) return true;
    const auto it = parent_of.find(pid);
    if (it == parent_of.end()) return false;
    pid = it->second;
  }
  return false;
}

}  // namespace

std::uint64_t other_processes_cpu_ns(const std::vector<ProcessCpu>& before,
                                     const std::vector<ProcessCpu>& after, pid_t own) {
  std::map<Key, std::uint64_t> cpu_before;
  std::map<pid_t, pid_t> parent_of;
  for (const ProcessCpu& p : before) {
    cpu_before[{p.pid, p.start_ticks}] = p.cpu_ns;
    parent_of[p.pid] = p.ppid;
  }
  for (const ProcessCpu& p : after) parent_of[p.pid] = p.ppid;  // the latest parent wins
  std::uint64_t other = 0;
  for (const ProcessCpu& p : after) {
    if (p.kernel_thread || descends_from(p.pid, own, parent_of)) continue;
    const auto was = cpu_before.find({p.pid, p.start_ticks});
    const std::uint64_t base = was == cpu_before.end() ? 0 : was->second;
    if (p.cpu_ns > base) other += p.cpu_ns - base;
  }
  return other;
}

}  // namespace schedrig::sampler
