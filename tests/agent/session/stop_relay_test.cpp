// StopRelay: a stop signal reaches the runner's abort flag during a run.
#include "agent/session/stop_relay.h"

#include <gtest/gtest.h>

namespace schedrig::agent {
namespace {

using namespace std::chrono_literals;

// Polls `flag` for up to `limit`.
bool becomes_true(const std::atomic<bool>& flag, std::chrono::milliseconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (flag.load()) return true;
    std::this_thread::sleep_for(5ms);
  }
  return flag.load();
}

TEST(StopRelay, AStopDuringTheRunSetsTheAbortFlag) {
  std::atomic<bool> stop{false}, abort{false};
  const StopRelay relay(stop, abort, 10ms);
  std::this_thread::sleep_for(50ms);
  EXPECT_FALSE(abort.load()) << "nothing asked to stop";
  stop = true;
  EXPECT_TRUE(becomes_true(abort, 2s));
}

TEST(StopRelay, NoStopLeavesTheFlagAloneAndTheRelayEndsPromptly) {
  std::atomic<bool> stop{false}, abort{false};
  const auto start = std::chrono::steady_clock::now();
  { const StopRelay relay(stop, abort, 10s); }  // a long poll must not delay the end
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
  stop = true;  // after the run: no relay, no abort
  std::this_thread::sleep_for(30ms);
  EXPECT_FALSE(abort.load());
}

}  // namespace
}  // namespace schedrig::agent
