// finishes_within(): runs a call that might hang (e.g. open(2) of a FIFO)
// on a detached thread and waits for it a bounded time, so a regression
// fails the test instead of hanging the suite.
#pragma once

#include <chrono>
#include <exception>
#include <functional>
#include <future>
#include <memory>
#include <thread>

namespace schedrig::testing {

// True when `call` returned (or threw) within `limit`; an exception it threw
// is rethrown here. On a timeout the thread is left running detached.
inline bool finishes_within(std::chrono::milliseconds limit, std::function<void()> call) {
  auto done = std::make_shared<std::promise<void>>();
  std::future<void> finished = done->get_future();
  std::thread([done, call = std::move(call)] {
    try {
      call();
      done->set_value();
    } catch (...) {
      done->set_exception(std::current_exception());
    }
  }).detach();
  if (finished.wait_for(limit) != std::future_status::ready) return false;
  finished.get();
  return true;
}

}  // namespace schedrig::testing
