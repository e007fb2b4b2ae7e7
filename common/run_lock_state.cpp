#include "common/run_lock_state.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <sstream>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "common/parse_whole.h"

namespace schedrig {
namespace {

constexpr std::size_t kMaxStateBytes = 4096;

bool write_all(int fd, const std::string& text) {
  return ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
}

bool trusted(const struct stat& st) {
  return S_ISREG(st.st_mode) && (st.st_uid == 0 || st.st_uid == ::geteuid()) &&
         (st.st_mode & (S_IWGRP | S_IWOTH)) == 0 &&
         st.st_size <= static_cast<off_t>(kMaxStateBytes);
}

std::optional<RunLockState> parse_state(const std::string& text) {
  std::istringstream in(text);
  std::string pid, run_id, since;
  if (!(in >> pid >> run_id >> since)) return std::nullopt;
  const auto p = try_parse_whole<pid_t>(pid);
  const auto s = try_parse_whole<std::int64_t>(since);
  if (!p || !s) return std::nullopt;
  return RunLockState{*p, run_id, *s};
}

}  // namespace

void write_run_lock_state(int dir_fd, const std::string& name, const RunLockState& state) {
  const std::string tmp = fmt::format(".{}.{}", name, ::getpid());
  ::unlinkat(dir_fd, tmp.c_str(), 0);
  const int fd =
      ::openat(dir_fd, tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  const std::string text = fmt::format("{} {} {}\n", state.pid, state.run_id, state.since_ns);
  const bool ok = fd >= 0 && ::fchmod(fd, 0644) == 0 && write_all(fd, text);
  const int err = errno;
  if (fd >= 0) ::close(fd);
  if (!ok || ::renameat(dir_fd, tmp.c_str(), dir_fd, name.c_str()) != 0) {
    spdlog::warn("run lock state {} not written: {}", name, std::strerror(ok ? errno : err));
    ::unlinkat(dir_fd, tmp.c_str(), 0);
  }
}

std::optional<RunLockState> read_run_lock_state(int dir_fd, const std::string& name) {
  const int fd = ::openat(dir_fd, name.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  std::string text(kMaxStateBytes, '\0');
  ssize_t n = -1;
  if (::fstat(fd, &st) == 0 && trusted(st)) n = ::read(fd, text.data(), text.size());
  ::close(fd);
  if (n <= 0) return std::nullopt;
  text.resize(static_cast<std::size_t>(n));
  return parse_state(text);
}

}  // namespace schedrig
