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

ConfigFile ConfigFile::load(const std::string& path, std::span<const std::string_view> keys,
                            std::span<const std::string_view> map_keys,
                            std::span<const std::string_view> section_keys) {
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
    if (std::find(map_keys.begin(), map_keys.end(), key) != map_keys.end()) {
      cfg.add_map(key, kv.second, line);
      continue;
    }
    if (std::find(section_keys.begin(), section_keys.end(), key) != section_keys.end()) {
      if (!cfg.sections_.emplace(key, std::make_shared<const YAML::Node>(kv.second)).second)
        refuse(fmt::format("{}:{}: key '{}' given twice", path, line, printable(key)));
      continue;
    }
    if (!kv.second.IsScalar())
      refuse(fmt::format("{}:{}: key '{}': not a single value", path, line, key));
    cfg.add(key, kv.second.Scalar(), line);
  }
  return cfg;
}

void ConfigFile::add(const std::string& key, const std::string& value, int line) {
  if (!entries_.emplace(key, Entry{value, line}).second)
    refuse(fmt::format("{}:{}: key '{}' given twice", path_, line, printable(key)));
}

void ConfigFile::add_map(const std::string& key, const YAML::Node& map, int line) {
  if (map.IsNull()) return;  // "tools:" with nothing under it
  if (!map.IsMap())
    refuse(
        fmt::format("{}:{}: key '{}': not a mapping of names to single values", path_, line, key));
  if (map.size() > kMaxMapEntries)
    refuse(fmt::format("{}:{}: key '{}': more than {} entries", path_, line, key, kMaxMapEntries));
  for (const auto& kv : map) {
    const int at = yaml_line(kv.first);
    if (!kv.first.IsScalar() || !kv.second.IsScalar())
      refuse(
          fmt::format("{}:{}: key '{}': not a mapping of names to single values", path_, at, key));
    add(key + "." + kv.first.Scalar(), kv.second.Scalar(), at);
  }
}

std::vector<std::pair<std::string, std::string>> ConfigFile::entries(std::string_view key) const {
  std::vector<std::pair<std::string, std::string>> out;
  const std::string prefix = std::string(key) + ".";
  for (auto it = entries_.lower_bound(prefix);
       it != entries_.end() && it->first.starts_with(prefix); ++it) {
    out.emplace_back(it->first.substr(prefix.size()), it->second.value);
  }
  return out;
}

std::shared_ptr<const YAML::Node> ConfigFile::section(std::string_view key) const {
  auto it = sections_.find(key);
  return it == sections_.end() ? nullptr : it->second;
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
