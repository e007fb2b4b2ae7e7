#include "agent/session/state_lock.h"

#include <stdexcept>

#include <fmt/format.h>

#include "common/cli_error.h"

namespace schedrig::agent {
namespace {

LockFile open_lock(const std::string& state_dir) {
  try {
    return LockFile(state_dir + "/agent.lock", 0600);
  } catch (const std::runtime_error& e) {
    throw CliError(ErrorKind::kUsage, fmt::format("state dir {}: {}", state_dir, e.what()));
  }
}

}  // namespace

StateDirLock::StateDirLock(const std::string& state_dir) : lock_(open_lock(state_dir)) {
  bool taken = false;
  try {
    taken = lock_.try_lock();
  } catch (const std::runtime_error& e) {
    throw CliError(ErrorKind::kUsage, fmt::format("state dir {}: {}", state_dir, e.what()));
  }
  if (!taken) {
    throw CliError(
        ErrorKind::kUnreachable,
        fmt::format("state dir {} is in use by another schedrig-agent (pid {}; lock {}): "
                    "run when it ends, or give this one its own --state-dir (runs "
                    "still never overlap: they share the machine's run lock)",
                    state_dir, lock_.holder(), lock_.path()));
  }
}

}  // namespace schedrig::agent
