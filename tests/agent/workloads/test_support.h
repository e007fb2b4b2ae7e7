// Helpers shared by the workload tests.
#pragma once

#include <dirent.h>
#include <sched.h>
#include <sys/wait.h>

#include <cerrno>
#include <vector>

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

}  // namespace schedrig::workloads::test
