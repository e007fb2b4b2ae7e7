// Helpers shared by the workload tests.
#pragma once

#include <dirent.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "agent/workloads/window_observer.h"

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

// Threads of this process right now (entries of /proc/self/task). The first
// call starts and joins one thread, so a sanitizer runtime's background
// thread (ThreadSanitizer starts one with the first pthread_create) is there
// before any count is taken.
inline int thread_count() {
  static const bool runtime_threads_started = [] {
    std::thread([] {}).join();
    return true;
  }();
  (void)runtime_threads_started;
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

// A WindowObserver that records what it was told: the tasks (and whether
// each was a live thread at that moment), the calls, and the progress
// counter read at the open and again by another thread 100 ms in.
struct WindowRecorder {
  std::vector<procfs::TaskId> tasks;
  int opened = 0, closed = 0;
  bool all_alive = true;
  std::uint64_t ops_at_open = 0, ops_after_100ms = 0;
  std::thread reader;
  WindowObserver observer() {
    return {[this](const WorkloadWindow& w) {
              ++opened;
              tasks = w.tasks;
              for (const auto& id : w.tasks) {
                const auto path =
                    "/proc/" + std::to_string(id.pid) + "/task/" + std::to_string(id.tid);
                all_alive = all_alive && ::access(path.c_str(), F_OK) == 0;
              }
              ops_at_open = w.ops_so_far();
              reader = std::thread([this, ops = w.ops_so_far] {
                std::this_thread::sleep_for(std::chrono::milliseconds(100));
                ops_after_100ms = ops();
              });
            },
            [this] {
              ++closed;
              if (reader.joinable()) reader.join();
            }};
  }
};

}  // namespace schedrig::workloads::test
