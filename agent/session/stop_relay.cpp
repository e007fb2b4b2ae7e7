#include "agent/session/stop_relay.h"

#include <condition_variable>
#include <mutex>

namespace schedrig::agent {

StopRelay::StopRelay(const std::atomic<bool>& stop, std::atomic<bool>& abort,
                     std::chrono::milliseconds poll)
    : watcher_([&stop, &abort, poll](std::stop_token done) {
        std::mutex m;
        std::condition_variable_any cv;
        std::unique_lock lock(m);
        while (!done.stop_requested()) {
          if (stop.load()) {
            abort.store(true);
            return;
          }
          cv.wait_for(lock, done, poll, [] { return false; });
        }
      }) {}

StopRelay::~StopRelay() = default;  // jthread requests stop and joins

}  // namespace schedrig::agent
