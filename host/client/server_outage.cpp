#include "host/client/server_outage.h"

#include <algorithm>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "common/error.h"
#include "common/printable.h"
#include "common/stop_signal.h"

namespace schedrig::client {

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// Sleeps `d` in 100 ms steps; throws Error(kInterrupted) on a stop signal.
void pause(std::chrono::milliseconds d) {
  const std::atomic<bool>& stop = install_stop_signals();
  for (const auto until = Clock::now() + d; Clock::now() < until;) {
    if (stop.load()) throw Error(ErrorKind::kInterrupted, "interrupted");
    std::this_thread::sleep_for(std::min<Clock::duration>(100ms, until - Clock::now()));
  }
}

}  // namespace

void ride_server_outage(const std::function<void()>& request, std::ostream& log,
                        const OutagePolicy& policy) {
  std::optional<Clock::time_point> lost_at;
  std::chrono::milliseconds wait = policy.first_retry;
  for (;;) {
    try {
      request();
      if (lost_at) log << "server is back\n" << std::flush;
      return;
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::kUnreachable) throw;
      if (!lost_at) {
        lost_at = Clock::now();
        log << printable(fmt::format(
                   "{}; retrying for up to {} s (the run goes on on its agent)", e.what(),
                   std::chrono::duration_cast<std::chrono::seconds>(policy.give_up).count()))
            << "\n"
            << std::flush;
      }
      if (Clock::now() - *lost_at >= policy.give_up) throw;
    }
    pause(wait);
    wait = std::min(wait * 2, policy.max_retry);
  }
}

}  // namespace schedrig::client
