// Time helpers shared by the workloads.
#pragma once

#include <time.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

namespace schedrig::workloads {

// CLOCK_MONOTONIC in ns (vDSO, no syscall): the clock every latency uses.
inline std::uint64_t now_ns() {
  timespec ts;
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000u +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

// Sleeps until `deadline` or until *stop is set (polled every 10 ms).
inline void sleep_until_or_stopped(std::chrono::steady_clock::time_point deadline,
                                   const std::atomic<bool>* stop) {
  using namespace std::chrono_literals;
  while (std::chrono::steady_clock::now() < deadline) {
    if (stop && stop->load()) return;
    std::this_thread::sleep_for(
        std::min<std::chrono::nanoseconds>(10ms, deadline - std::chrono::steady_clock::now()));
  }
}

}  // namespace schedrig::workloads
