#include "host/nightly/night_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <system_error>

#include <filesystem>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include "common/cli_error.h"
#include "common/replace_file.h"
#include "common/state_dir.h"
#include "common/trusted_dir.h"
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
  try {
    replace_file_at(AT_FDCWD, path, text);
  } catch (const std::system_error& e) {
    throw CliError(ErrorKind::kFailed, fmt::format("cannot write: {}", e.what()));
  }
}

namespace {

// `nights` opened (made 0700 when missing) once it is known that only this
// user or root can add to it: no one else may place a night there.
UniqueFd open_nights_dir(const std::string& nights) {
  create_state_dir(nights);
  try {
    check_trusted_ancestors(nights);
    return UniqueFd(open_trusted_dir(nights));
  } catch (const UntrustedDir& e) {
    throw CliError(ErrorKind::kUsage, fmt::format("--nights {}: {}", nights, e.what()));
  }
}

}  // namespace

std::string new_night_dir(const std::string& nights, std::time_t start) {
  const UniqueFd dirfd = open_nights_dir(nights);
  const std::string stamp = fmt::format("{:%Y-%m-%dT%H%MZ}", fmt::gmtime(start));
  for (int n = 1; n < 100; ++n) {
    const std::string name = n == 1 ? stamp : fmt::format("{}-{}", stamp, n);
    if (::mkdirat(dirfd.get(), name.c_str(), 0700) == 0) return nights + "/" + name;
    if (errno != EEXIST)
      throw CliError(ErrorKind::kUsage, fmt::format("--nights {}: cannot make {}: {}", nights,
                                                    name, std::strerror(errno)));
  }
  throw CliError(ErrorKind::kUsage,
                 fmt::format("--nights {}: 99 nights already started at {}", nights, stamp));
}

}  // namespace schedrig::nightly
