#include "common/state_dir.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "common/cli_error.h"

namespace schedrig {

std::string default_state_dir() {
  namespace fs = std::filesystem;
  fs::path dir;
  if (::geteuid() == 0) {
    dir = "/var/lib/schedrig";
  } else if (const char* xdg = std::getenv("XDG_STATE_HOME"); xdg && *xdg) {
    dir = fs::path(xdg) / "schedrig";
  } else {
    const char* home = std::getenv("HOME");
    dir = fs::path(home ? home : ".") / ".local/state/schedrig";
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) {
    throw CliError(ErrorKind::kUsage,
                   fmt::format("cannot create state dir {}: {}", dir.string(), ec.message()));
  }
  return dir;
}

}  // namespace schedrig
