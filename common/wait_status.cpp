#include "common/wait_status.h"

#include <sys/wait.h>

#include <cstring>

#include <fmt/format.h>

namespace schedrig {

std::string describe_status(int status) {
  if (WIFEXITED(status)) return fmt::format("exited with {}", WEXITSTATUS(status));
  if (WIFSIGNALED(status))
    return fmt::format("killed by signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)));
  return fmt::format("ended with status {}", status);
}

}  // namespace schedrig
