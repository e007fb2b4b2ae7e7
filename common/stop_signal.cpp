#include "common/stop_signal.h"

#include <signal.h>

namespace schedrig {
namespace {

std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free);

void on_signal(int) { g_stop.store(true); }

}  // namespace

std::atomic<bool>& install_stop_signals() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  return g_stop;
}

}  // namespace schedrig
