// Flat YAML config files (`schedrig-agent connect --config F`, later `schedrig
// serve --config F`): one mapping of KEY: VALUE scalars, keys as the
// command's flags name them (token_file for --token-file). Flags win over
// the file; the caller decides that by asking only for what no flag gave.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace schedrig {

class ConfigFile {
 public:
  // Reads and parses `path`. Every key must be one of `keys`. Throws
  // CliError(kUsage): "F: cannot read: REASON", "F:LINE: YAML syntax: ...",
  // "F:LINE: unknown key 'K' (known: a, b)", "F:LINE: key 'K': not a single
  // value", "F:LINE: key 'K' given twice", "F: not a mapping of keys to values".
  static ConfigFile load(const std::string& path, std::span<const std::string_view> keys);

  // The value of `key` as written; nullopt when the file does not set it.
  std::optional<std::string> text(std::string_view key) const;
  // The value of `key` as a number in [min, max]; throws CliError(kUsage)
  // "F:LINE: key 'K': 'V' is not a number in MIN..MAX".
  std::optional<double> number(std::string_view key, double min, double max) const;
  // "F:LINE: key 'K'", to start the caller's own error about a value.
  std::string where(std::string_view key) const;
  const std::string& path() const { return path_; }

 private:
  struct Entry {
    std::string value;
    int line = 0;  // 1-based
  };
  std::string path_;
  std::map<std::string, Entry, std::less<>> entries_;
};

}  // namespace schedrig
