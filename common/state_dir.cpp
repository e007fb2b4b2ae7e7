#include "common/state_dir.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "common/cli_error.h"

namespace schedrig {

std::string default_state_dir() {
  namespace fs = std::filesystem;
  fs::path dir;
  if (const char* set = std::getenv("SCHEDRIG_STATE_DIR"); set && *set) {
    dir = set;
  } else if (::geteuid() == 0) {
    dir = "/var/lib/schedrig";
  } else if (const char* xdg = std::getenv("XDG_STATE_HOME"); xdg && *xdg) {
    dir = fs::path(xdg) / "schedrig";
  } else {
    const char* home = std::getenv("HOME");
    dir = fs::path(home ? home : ".") / ".local/state/schedrig";
  }
  create_state_dir(dir.string());
  return dir;
}

void create_state_dir(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path path(dir);
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  if (!ec && ::mkdir(dir.c_str(), 0700) == 0) {
    // The umask may have taken bits off 0700; set it exactly, on what was
    // just made (never through a link swapped in since).
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 || ::fchmod(fd, 0700) != 0) ec.assign(errno, std::generic_category());
    if (fd >= 0) ::close(fd);
  } else if (!ec && errno != EEXIST) {
    ec.assign(errno, std::generic_category());
  }
  if (!ec && !fs::is_directory(path, ec)) ec = std::make_error_code(std::errc::not_a_directory);
  if (ec) {
    throw CliError(ErrorKind::kUsage,
                   fmt::format("cannot create state dir {}: {}", dir, ec.message()));
  }
}

}  // namespace schedrig
