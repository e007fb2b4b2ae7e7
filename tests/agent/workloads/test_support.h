// Helpers shared by the workload tests.
#pragma once

#include <dirent.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "agent/workloads/task_ids.h"

namespace schedrig::workloads::test {

// The PUs this process may run on (sched_getaffinity).
inline std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  ::sched_getaffinity(0, sizeof set, &set);
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c) {
    if (CPU_ISSET(c, &set)) cpus.push_back(c);
  }
  return cpus;
}

// True when this process has no child at all (not even a zombie).
inline bool no_children_left() { return ::waitpid(-1, nullptr, WNOHANG) == -1 && errno == ECHILD; }

// Threads of this process right now (entries of /proc/self/task).
inline int thread_count() {
  int n = 0;
  if (DIR* d = ::opendir("/proc/self/task")) {
    while (dirent* e = ::readdir(d)) n += e->d_name[0] != '.';
    ::closedir(d);
  }
  return n;
}

// A PU number this process is not allowed on but that fits a cpu_set_t.
inline int disallowed_pu() {
  std::vector<int> cpus = allowed_cpus();
  return cpus.back() + 1 < CPU_SETSIZE ? CPU_SETSIZE - 1 : -1;
}

// run(&stop) with `stop` set after `delay` by another thread: what it
// returned and how long it took (the stop-flag tests).
template <class Run>
auto run_stopped_after(std::chrono::milliseconds delay, Run&& run) {
  std::atomic<bool> stop{false};
  std::thread stopper([&] {
    std::this_thread::sleep_for(delay);
    stop = true;
  });
  const auto t0 = std::chrono::steady_clock::now();
  auto result = std::forward<Run>(run)(&stop);
  const auto elapsed = std::chrono::steady_clock::now() - t0;
  stopper.join();
  return std::pair{std::move(result), elapsed};
}

// A TasksStarted hook that records what it was told, and on which thread
// group (each reported tid must be a live thread of `pid` at that moment).
struct TasksRecorder {
  std::vector<TaskIds> tasks;
  int calls = 0;
  bool all_alive = true;
  TasksStarted hook() {
    return [this](const std::vector<TaskIds>& t) {
      ++calls;
      tasks = t;
      for (const auto& id : t) {
        const auto path = "/proc/" + std::to_string(id.pid) + "/task/" + std::to_string(id.tid);
        all_alive = all_alive && ::access(path.c_str(), F_OK) == 0;
      }
    };
  }
};

}  // namespace schedrig::workloads::test
