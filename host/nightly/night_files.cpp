#include "host/nightly/night_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include "common/cli_error.h"
#include "common/unique_fd.h"

namespace schedrig::nightly {

std::string read_bounded_file(const std::string& path, std::size_t max) {
  const UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
  struct stat st {};
  if (fd.get() < 0 || ::fstat(fd.get(), &st) != 0)
    throw CliError(ErrorKind::kUsage,
                   fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
  if (!S_ISREG(st.st_mode))
    throw CliError(ErrorKind::kUsage, fmt::format("{}: not a regular file", path));
  if (static_cast<std::size_t>(st.st_size) > max)
    throw CliError(ErrorKind::kUsage,
                   fmt::format("{}: {} bytes; at most {}", path, st.st_size, max));
  std::string text(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t got = 0;
  while (got < text.size()) {
    const ssize_t n = ::read(fd.get(), text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  text.resize(got);
  return text;
}

void replace_file(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".new";
  const auto fail = [&](const std::string& what) {
    throw CliError(ErrorKind::kFailed,
                   fmt::format("{}: cannot write: {}", what, std::strerror(errno)));
  };
  if (::unlink(tmp.c_str()) != 0 && errno != ENOENT) fail(tmp);
  const UniqueFd fd(
      ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
  if (fd.get() < 0) fail(tmp);
  std::size_t put = 0;
  while (put < text.size()) {
    const ssize_t n = ::write(fd.get(), text.data() + put, text.size() - put);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail(tmp);
    put += static_cast<std::size_t>(n);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) fail(path);
}

}  // namespace schedrig::nightly
