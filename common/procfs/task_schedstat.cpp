#include "agent/sampler/task_schedstat.h"

#include <string>

#include "agent/sampler/text_scan.h"

namespace schedrig::sampler {

std::optional<TaskSchedstat> parse_task_schedstat(std::string_view text) {
  const auto f = split_fields(text.substr(0, text.find('\n')));
  TaskSchedstat t;
  if (f.size() != 3 || !parse_u64(f[0], t.run_ns) || !parse_u64(f[1], t.wait_ns) ||
      !parse_u64(f[2], t.timeslices)) {
    return std::nullopt;
  }
  return t;
}

void TaskSchedstatReader::watch(const std::vector<std::pair<pid_t, pid_t>>& pid_tids) {
  std::map<pid_t, ProcFile> next;
  for (const auto& [pid, tid] : pid_tids) {
    auto it = files_.find(tid);
    if (it != files_.end()) {
      next.emplace(tid, std::move(it->second));
      continue;
    }
    const auto path =
        root_ / "proc" / std::to_string(pid) / "task" / std::to_string(tid) / "schedstat";
    next.emplace(tid, ProcFile(path.string()));
  }
  files_ = std::move(next);
}

std::map<pid_t, TaskSchedstat> TaskSchedstatReader::read() {
  std::map<pid_t, TaskSchedstat> out;
  for (auto& [tid, file] : files_) {
    std::string_view text;
    if (!file.read(text)) continue;
    if (auto t = parse_task_schedstat(text)) out.emplace(tid, *t);
  }
  return out;
}

}  // namespace schedrig::sampler
