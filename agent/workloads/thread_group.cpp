#include "agent/workloads/thread_group.h"

#include <sched.h>

#include <chrono>
#include <cstring>
#include <thread>

#include <fmt/format.h>

#include "agent/workloads/workload_error.h"

namespace schedrig::workloads {

ThreadGroup::ThreadGroup(std::function<void()> stop_and_nudge)
    : stop_and_nudge_(std::move(stop_and_nudge)) {}

ThreadGroup::~ThreadGroup() { join_all(); }

void* ThreadGroup::trampoline(void* arg) {
  auto* t = static_cast<Thread*>(arg);
  try {
    t->fn();
  } catch (...) {
    // Workload threads report through their own counters; an exception
    // here must not take the agent down.
  }
  t->done.store(true, std::memory_order_release);
  return nullptr;
}

void ThreadGroup::spawn(const std::vector<int>& cpus, std::function<void()> fn,
                        const std::string& what) {
  auto t = std::make_unique<Thread>();
  t->fn = std::move(fn);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 256 * 1024);
  cpu_set_t set;
  CPU_ZERO(&set);
  int err = 0;
  for (int c : cpus) {
    if (c < 0 || c >= CPU_SETSIZE)
      err = EINVAL;
    else
      CPU_SET(c, &set);
  }
  if (err == 0 && !cpus.empty()) err = pthread_attr_setaffinity_np(&attr, sizeof set, &set);
  if (err == 0) err = pthread_create(&t->handle, &attr, &ThreadGroup::trampoline, t.get());
  pthread_attr_destroy(&attr);
  if (err != 0) {
    std::vector<std::string> pus;
    for (int c : cpus) pus.push_back(std::to_string(c));
    throw WorkloadError(fmt::format("{}: cannot start a thread on PUs [{}]: {}", what,
                                    fmt::join(pus, ","), std::strerror(err)));
  }
  threads_.push_back(std::move(t));
}

void ThreadGroup::join_all() {
  using namespace std::chrono_literals;
  for (;;) {
    bool all_done = true;
    for (const auto& t : threads_) all_done = all_done && (t->joined || t->done.load());
    if (all_done) break;
    if (stop_and_nudge_) stop_and_nudge_();
    std::this_thread::sleep_for(1ms);
  }
  for (auto& t : threads_) {
    if (!t->joined) {
      pthread_join(t->handle, nullptr);
      t->joined = true;
    }
  }
}

}  // namespace schedrig::workloads
