// eventually(): polls a condition until it holds or a time limit passes, for
// tests that wait on another process (a server, an agent, a store file).
#pragma once

#include <chrono>
#include <thread>

namespace schedrig::testing {

// True once `done()` is true, polling every `every`; false when `limit`
// passed first (`done` is tried once more at the end).
template <class F>
bool eventually(F done, std::chrono::milliseconds limit,
                std::chrono::milliseconds every = std::chrono::milliseconds(50)) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= until) return done();
    std::this_thread::sleep_for(every);
  }
  return true;
}

}  // namespace schedrig::testing
