// YAML config files (`schedrig-agent connect --config F`, `schedrig serve
// --config F`): one mapping of KEY: VALUE scalars, keys as the command's
// flags name them (token_file for --token-file), and a few map keys whose
// value is itself a mapping of NAME: VALUE scalars (the agent's `tools:`),
// and section keys whose value the caller reads itself (the agent's
// `kernels:`, agent/boot/kernel_table.h).
// Flags win over the file; the caller decides that by asking only for what
// no flag gave.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace YAML {
class Node;
}  // namespace YAML

namespace schedrig {

class ConfigFile {
 public:
  // Reads and parses `path`. Every key must be one of `keys`. Throws
  // CliError(kUsage): "F: cannot read: REASON", "F:LINE: YAML syntax: ...",
  // "F:LINE: unknown key 'K' (known: a, b)", "F:LINE: key 'K': not a single
  // value", "F:LINE: key 'K' given twice", "F: not a mapping of keys to values".
  // A key in `map_keys` (which must also be in `keys`) takes a mapping of
  // NAME: VALUE scalars instead, read with entries(); "F:LINE: key 'K': not
  // a mapping of names to single values" otherwise.
  // A key in `section_keys` (also in `keys`) is kept as written, any shape,
  // for section().
  static ConfigFile load(const std::string& path, std::span<const std::string_view> keys,
                         std::span<const std::string_view> map_keys = {},
                         std::span<const std::string_view> section_keys = {});

  // The value of `key` as written; nullopt when the file does not set it.
  std::optional<std::string> text(std::string_view key) const;
  // The value of `key` as a number in [min, max]; throws CliError(kUsage)
  // "F:LINE: key 'K': 'V' is not a number in MIN..MAX".
  std::optional<double> number(std::string_view key, double min, double max) const;
  // "F:LINE: key 'K'", to start the caller's own error about a value;
  // "K.NAME" names an entry of a map key.
  std::string where(std::string_view key) const;
  // The NAME: VALUE entries of map key `key` in name order; empty when the
  // file does not set it.
  std::vector<std::pair<std::string, std::string>> entries(std::string_view key) const;
  // The value of section key `key` as the file wrote it (its nodes carry
  // their lines: common/yaml_line.h); nullptr when the file does not set it.
  std::shared_ptr<const YAML::Node> section(std::string_view key) const;
  const std::string& path() const { return path_; }

 private:
  struct Entry {
    std::string value;
    int line = 0;  // 1-based
  };
  static constexpr std::size_t kMaxMapEntries = 64;
  void add(const std::string& key, const std::string& value, int line);
  void add_map(const std::string& key, const YAML::Node& map, int line);

  std::string path_;
  std::map<std::string, Entry, std::less<>> entries_;
  std::map<std::string, std::shared_ptr<const YAML::Node>, std::less<>> sections_;
};

}  // namespace schedrig
