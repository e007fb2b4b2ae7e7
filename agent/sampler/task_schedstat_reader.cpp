#include "agent/sampler/task_schedstat_reader.h"

#include <string_view>

namespace schedrig::sampler {

void TaskSchedstatReader::watch(const std::vector<procfs::TaskId>& tasks) {
  std::map<pid_t, procfs::FileReader> next;
  for (const procfs::TaskId& task : tasks) {
    auto it = files_.find(task.tid);
    if (it != files_.end()) {
      next.emplace(task.tid, std::move(it->second));
      continue;
    }
    next.emplace(task.tid, procfs::FileReader(procfs::task_schedstat_path(root_, task)));
  }
  files_ = std::move(next);
}

std::map<pid_t, procfs::TaskSchedstat> TaskSchedstatReader::read() {
  std::map<pid_t, procfs::TaskSchedstat> out;
  for (auto& [tid, file] : files_) {
    std::string_view text;
    if (!file.read(text)) continue;
    if (auto t = procfs::parse_task_schedstat(text)) out.emplace(tid, *t);
  }
  return out;
}

}  // namespace schedrig::sampler
