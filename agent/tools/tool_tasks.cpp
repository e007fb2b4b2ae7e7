#include "agent/tools/tool_tasks.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

namespace schedrig::tools {
namespace {

namespace fs = std::filesystem;

// A /proc entry's name as a PID, or -1 when it is not one.
pid_t as_pid(const std::string& name) {
  pid_t pid = -1;
  const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), pid);
  return ec == std::errc() && end == name.data() + name.size() && pid > 0 ? pid : -1;
}

struct ProcStat {
  char state = '?';
  pid_t ppid = -1;
  pid_t pgrp = -1;
};

// Fields 3 (state) and 5 (pgrp) of a /proc/PID/stat line; the command name
// (field 2) may hold blanks and parentheses, so fields are counted after its
// last ')'. pgrp -1 when it cannot be read.
ProcStat proc_stat_of(const fs::path& stat_path) {
  std::ifstream in(stat_path);
  std::string line;
  if (!std::getline(in, line)) return {};
  const auto close = line.rfind(')');
  if (close == std::string::npos) return {};
  std::istringstream rest(line.substr(close + 1));
  std::string state;
  pid_t ppid = 0, pgrp = -1;
  rest >> state >> ppid >> pgrp;
  if (!rest || state.empty()) return {};
  return {state[0], ppid, pgrp};
}

void add_threads(const fs::path& proc_pid, pid_t pid, std::vector<procfs::TaskId>& out) {
  std::error_code ec;
  for (const auto& t : fs::directory_iterator(proc_pid / "task", ec)) {
    if (const pid_t tid = as_pid(t.path().filename().string()); tid > 0) out.push_back({pid, tid});
  }
}

// Calls `fn(pid, /proc/PID, its stat)` for each process under `proc_dir`;
// stops early when fn returns false. Processes that exit meanwhile show a
// stat of pgrp and ppid -1.
template <typename Fn>
void for_each_process(const std::string& proc_dir, Fn fn) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(proc_dir, ec)) {
    const pid_t pid = as_pid(e.path().filename().string());
    if (pid > 0 && !fn(pid, e.path(), proc_stat_of(e.path() / "stat"))) return;
  }
}

}  // namespace

std::vector<procfs::TaskId> process_group_tasks(pid_t pgid, const std::string& proc_dir) {
  std::vector<procfs::TaskId> out;
  for_each_process(proc_dir, [&](pid_t pid, const fs::path& dir, const ProcStat& st) {
    if (st.pgrp == pgid) add_threads(dir, pid, out);
    return true;
  });
  std::sort(out.begin(), out.end(), [](const procfs::TaskId& a, const procfs::TaskId& b) {
    return a.pid != b.pid ? a.pid < b.pid : a.tid < b.tid;
  });
  return out;
}

bool process_group_alive(pid_t pgid, const std::string& proc_dir) {
  bool alive = false;
  for_each_process(proc_dir, [&](pid_t, const fs::path&, const ProcStat& st) {
    alive = st.pgrp == pgid && st.state != 'Z' && st.state != 'X';
    return !alive;
  });
  return alive;
}

std::vector<pid_t> children_of(pid_t parent, const std::string& proc_dir) {
  std::vector<pid_t> out;
  for_each_process(proc_dir, [&](pid_t pid, const fs::path&, const ProcStat& st) {
    if (st.ppid == parent) out.push_back(pid);
    return true;
  });
  return out;
}

std::vector<procfs::TaskId> settled_group_tasks(pid_t pgid, std::chrono::milliseconds poll,
                                                std::chrono::milliseconds limit,
                                                const std::string& proc_dir) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  std::vector<procfs::TaskId> last = process_group_tasks(pgid, proc_dir);
  while (std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(poll);
    std::vector<procfs::TaskId> now = process_group_tasks(pgid, proc_dir);
    const bool settled = now.size() == last.size();
    last = std::move(now);
    if (settled) break;
  }
  return last;
}

}  // namespace schedrig::tools
