// Threads that are always joined: on scope exit (an exception included) the
// group raises its stop flag and joins every thread, so a failing round
// never leaves a joinable std::thread behind (std::terminate).
#pragma once

#include <atomic>
#include <thread>
#include <utility>
#include <vector>

namespace schedrig::bench {

class ThreadGroup {
 public:
  ThreadGroup() = default;
  ~ThreadGroup() { join(); }
  ThreadGroup(const ThreadGroup&) = delete;
  ThreadGroup& operator=(const ThreadGroup&) = delete;

  template <class F>
  void spawn(F&& f) {
    threads_.emplace_back(std::forward<F>(f));
  }
  // What the threads watch; join() raises it.
  const std::atomic<bool>& stop_flag() const { return stop_; }
  void join() {
    stop_ = true;
    for (auto& t : threads_) {
      if (t.joinable()) t.join();
    }
  }

 private:
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
};

}  // namespace schedrig::bench
