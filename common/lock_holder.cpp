#include "common/lock_holder.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/parse_whole.h"
#include "common/procfs/file_reader.h"

namespace schedrig {
namespace {

// Whitespace-separated fields of one line.
std::vector<std::string_view> fields_of(std::string_view line) {
  std::vector<std::string_view> out;
  while (!line.empty()) {
    const std::size_t start = line.find_first_not_of(' ');
    if (start == std::string_view::npos) break;
    line.remove_prefix(start);
    const std::size_t end = line.find(' ');
    out.push_back(line.substr(0, end));
    if (end == std::string_view::npos) break;
    line.remove_prefix(end);
  }
  return out;
}

}  // namespace

std::optional<pid_t> parse_flock_holder(std::string_view proc_locks, dev_t dev, ino_t ino) {
  const std::string file = fmt::format("{:02x}:{:02x}:{}", major(dev), minor(dev), ino);
  while (!proc_locks.empty()) {
    const std::size_t nl = proc_locks.find('\n');
    const auto f = fields_of(proc_locks.substr(0, nl));
    proc_locks.remove_prefix(nl == std::string_view::npos ? proc_locks.size() : nl + 1);
    // "N:" "FLOCK" "ADVISORY" "WRITE" PID MAJ:MIN:INO START END
    if (f.size() < 6 || f[1] != "FLOCK" || f[3] != "WRITE" || f[5] != file) continue;
    const auto pid = try_parse_whole<pid_t>(f[4]);
    if (pid && *pid > 0) return pid;
  }
  return std::nullopt;
}

std::optional<pid_t> flock_holder(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return std::nullopt;
  procfs::FileReader locks("/proc/locks", std::size_t{4} << 20);
  std::string_view text;
  if (!locks.read(text)) return std::nullopt;
  return parse_flock_holder(text, st.st_dev, st.st_ino);
}

}  // namespace schedrig
