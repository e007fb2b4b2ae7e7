#include "agent/workloads/thread_state.h"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <string>
#include <string_view>

namespace schedrig::workloads {

char thread_state(pid_t tid) {
  const std::string path = "/proc/self/task/" + std::to_string(tid) + "/stat";
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return '?';
  std::array<char, 512> buf;
  const ssize_t n = ::read(fd, buf.data(), buf.size());
  ::close(fd);
  if (n <= 0) return '?';
  // "TID (comm) S ...": the name may hold ')' and blanks; the state follows the last ')'.
  const std::string_view line(buf.data(), static_cast<std::size_t>(n));
  const auto close = line.rfind(')');
  return close != std::string_view::npos && close + 2 < line.size() ? line[close + 2] : '?';
}

bool all_waiting(const std::vector<pid_t>& tids) {
  for (pid_t tid : tids) {
    const char s = thread_state(tid);
    if (s != 'S' && s != 'D') return false;
  }
  return !tids.empty();
}

}  // namespace schedrig::workloads
