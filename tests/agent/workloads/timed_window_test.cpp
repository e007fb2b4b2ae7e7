#include "agent/workloads/timed_window.h"

#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "agent/workloads/futex.h"

namespace schedrig::workloads {
namespace {

// wait_until_ready returns only once every thread has counted itself in,
// and stop_and_open wakes the threads parked on `go` with `stopping` set.
TEST(StartGate, WaitsForEveryThreadAndOpensForShutdown) {
  StartGate gate;
  std::atomic<unsigned> saw_stopping{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < 3; ++i) {
    threads.emplace_back([&] {
      gate.ready.fetch_add(1);
      futex_wait_while(&gate.go, 0);
      if (gate.stopping.load()) saw_stopping.fetch_add(1);
    });
  }
  wait_until_ready(gate, 3);
  EXPECT_EQ(gate.ready.load(), 3u);
  EXPECT_EQ(gate.go.load(), 0u);
  stop_and_open(gate);
  for (auto& t : threads) t.join();
  EXPECT_EQ(gate.go.load(), 1u);
  EXPECT_TRUE(gate.stopping.load());
  EXPECT_FALSE(gate.closed.load());
  EXPECT_EQ(saw_stopping.load(), 3u);
}

}  // namespace
}  // namespace schedrig::workloads
