// Test support: fixture lookup (fixtures.h).
#include "tests/support/fixtures.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace schedrig::testing {
namespace {

// The value of environment variable `name`, or nothing when unset or empty.
std::optional<std::string> env(const char* name) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return std::nullopt;
  return std::string(v);
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
  return "fixture missing: " + path.string() +
         " (fixtures are read from ../shared/fixtures beside the source tree; set "
         "SCHEDRIG_FIXTURES=DIR to read them from DIR; with CI set this is a failure)";
}

std::optional<std::string> read_fixture(const std::string& rel) {
  std::ifstream in(fixture_path(rel));
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace schedrig::testing
