// Test support: fixture lookup (fixtures.h).
#include "tests/support/fixtures.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

namespace schedrig::testing {
namespace {

// The value of environment variable `name`, or nothing when unset or empty.
std::optional<std::string> env(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return std::nullopt;
  return std::string(v);
}

// How to point the tests at the fixtures, for every message.
constexpr const char* kHint =
    " (fixtures are read from ../shared/fixtures beside the source tree; set "
    "SCHEDRIG_FIXTURES=DIR to read them from DIR; with CI set this is a failure)";

// "; the fixture root ROOT is a file, not a directory" when it is one (a
// SCHEDRIG_FIXTURES naming a file), else "".
std::string root_note() {
  std::error_code ec;
  const std::filesystem::path root = fixtures_dir();
  if (!std::filesystem::exists(root, ec) || std::filesystem::is_directory(root, ec)) return "";
  return "; the fixture root " + root.string() + " (SCHEDRIG_FIXTURES or the default) is " +
         "not a directory";
}

// The bytes of the regular file at `path`; nothing when it cannot be opened
// or is not a regular file (a directory, or a FIFO that would block).
std::optional<std::string> read_regular(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  std::optional<std::string> bytes;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) bytes.emplace();
  char buf[65536];
  while (bytes) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) bytes.reset();
    if (n <= 0) break;
    bytes->append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return bytes;
}

}  // namespace

std::filesystem::path fixtures_dir() {
  if (const auto dir = env("SCHEDRIG_FIXTURES")) return *dir;
  return SCHEDRIG_DEFAULT_FIXTURES_DIR;
}

std::filesystem::path fixture_path(const std::string& rel) { return fixtures_dir() / rel; }

bool fixtures_required() { return env("CI").has_value(); }

std::optional<std::string> missing_fixture(const std::filesystem::path& path) {
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) return std::nullopt;
  return "fixture missing: " + path.string() + root_note() + kHint;
}

std::optional<std::string> missing_fixture_file(const std::filesystem::path& path) {
  if (auto missing = missing_fixture(path)) return missing;
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  return "fixture is not a regular file: " + path.string() + kHint;
}

std::optional<std::string> read_fixture(const std::string& rel) {
  return read_regular(fixture_path(rel));
}

}  // namespace schedrig::testing
