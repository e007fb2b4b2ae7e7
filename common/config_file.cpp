#include "common/config_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/yaml.h>

#include "common/cli_error.h"
#include "common/parse_whole.h"
#include "common/printable.h"
#include "common/yaml_line.h"

namespace schedrig {
namespace {

[[noreturn]] void refuse(const std::string& message) { throw CliError(ErrorKind::kUsage, message); }

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) refuse(fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

YAML::Node parse(const std::string& path, const std::string& text) {
  try {
    return YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    refuse(fmt::format("{}:{}: YAML syntax: {}", path, e.mark.line + 1, e.msg));
  }
}

}  // namespace

ConfigFile ConfigFile::load(const std::string& path, std::span<const std::string_view> keys) {
  const YAML::Node root = parse(path, read_text(path));
  ConfigFile cfg;
  cfg.path_ = path;
  if (root.IsNull()) return cfg;  // an empty file sets nothing
  if (!root.IsMap()) refuse(fmt::format("{}: not a mapping of keys to values", path));
  for (const auto& kv : root) {
    const std::string key = kv.first.Scalar();
    const int line = yaml_line(kv.first);
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      refuse(fmt::format("{}:{}: unknown key '{}' (known: {})", path, line, printable(key),
                         fmt::join(keys, ", ")));
    }
    if (!kv.second.IsScalar())
      refuse(fmt::format("{}:{}: key '{}': not a single value", path, line, key));
    if (!cfg.entries_.emplace(key, Entry{kv.second.Scalar(), line}).second)
      refuse(fmt::format("{}:{}: key '{}' given twice", path, line, key));
  }
  return cfg;
}

std::optional<std::string> ConfigFile::text(std::string_view key) const {
  auto it = entries_.find(key);
  if (it == entries_.end()) return std::nullopt;
  return it->second.value;
}

std::optional<double> ConfigFile::number(std::string_view key, double min, double max) const {
  auto it = entries_.find(key);
  if (it == entries_.end()) return std::nullopt;
  const auto v = try_parse_whole<double>(it->second.value);
  if (!v || !(*v >= min && *v <= max)) {
    refuse(fmt::format("{}: '{}' is not a number in {}..{}", where(key),
                       printable(it->second.value), min, max));
  }
  return v;
}

std::string ConfigFile::where(std::string_view key) const {
  auto it = entries_.find(key);
  return fmt::format("{}:{}: key '{}'", path_, it == entries_.end() ? 0 : it->second.line, key);
}

}  // namespace schedrig
