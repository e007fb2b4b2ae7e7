// Threads of a multi-threaded workload (wakeup, kv): started pinned, joined
// on every path. A workload's threads are the agent's own threads, so they
// cannot outlive the agent; the group makes sure none outlives the run.
#pragma once

#include <pthread.h>

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace schedrig::workloads {

class ThreadGroup {
 public:
  // `stop_and_nudge` must make every running thread return soon: set the
  // workload's stop flag and post every futex a thread may sleep on. The
  // destructor and join_all call it (repeatedly, every 1 ms) until all
  // threads have returned.
  explicit ThreadGroup(std::function<void()> stop_and_nudge);
  ~ThreadGroup();
  ThreadGroup(const ThreadGroup&) = delete;
  ThreadGroup& operator=(const ThreadGroup&) = delete;

  // Starts `fn` on a new thread (256 KiB stack) whose affinity is `cpus`
  // (PU OS indexes) from its first instruction. Throws WorkloadError naming
  // `what`, the cpulist and the errno text when pthread_create fails (EINVAL:
  // a PU not allowed; EAGAIN: thread limit).
  void spawn(const std::vector<int>& cpus, std::function<void()> fn, const std::string& what);

  // Stops and joins every thread; idempotent.
  void join_all();

  std::size_t size() const { return threads_.size(); }

 private:
  struct Thread {
    pthread_t handle{};
    std::function<void()> fn;
    std::atomic<bool> done{false};
    bool joined = false;
  };
  static void* trampoline(void* arg);

  std::function<void()> stop_and_nudge_;
  std::vector<std::unique_ptr<Thread>> threads_;
};

}  // namespace schedrig::workloads
