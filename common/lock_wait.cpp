#include "common/lock_wait.h"

#include <thread>

namespace schedrig {
namespace {

using Clock = std::chrono::steady_clock;

// How long a wait goes untold while the kernel names no holder (the holder
// between taking and /proc/locks showing it), so the first report can name it.
constexpr std::chrono::milliseconds kUnknownHolderGrace{500};
constexpr std::chrono::milliseconds kPoll{50};

std::chrono::milliseconds since(Clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t);
}

// What has been told of one wait, and whether to tell again now.
struct Teller {
  bool told = false;
  std::optional<pid_t> holder;
  Clock::time_point last{};

  bool due(const std::optional<pid_t>& now, std::chrono::milliseconds waited,
           std::chrono::milliseconds every) const {
    if (!told) return now.has_value() || waited >= kUnknownHolderGrace;
    return (now && now != holder) || Clock::now() - last >= every;
  }
};

}  // namespace

bool wait_for_lock(LockFile& lock, const LockWaitPolicy& policy, const LockWaitTell& tell) {
  const auto start = Clock::now();
  Teller teller;
  while (!lock.try_lock()) {
    const auto waited = since(start);
    const std::optional<pid_t> holder = lock.holder_pid();
    if (teller.due(holder, waited, policy.report_every)) {
      teller = {true, holder ? holder : teller.holder, Clock::now()};
      if (tell) tell({teller.holder, waited, false});
    }
    if ((policy.limit.count() > 0 && waited >= policy.limit) ||
        (policy.stop && policy.stop->load())) {
      return false;
    }
    std::this_thread::sleep_for(kPoll);
  }
  if (teller.told && tell) tell({teller.holder, since(start), true});
  return true;
}

}  // namespace schedrig
