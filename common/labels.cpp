#include "common/labels.h"

#include <fmt/format.h>

#include "common/cli_error.h"

namespace schedrig {

std::map<std::string, std::string> parse_labels(const std::vector<std::string>& items) {
  std::map<std::string, std::string> labels;
  for (const auto& item : items) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw CliError(ErrorKind::kUsage, fmt::format("--label '{}': want KEY=VALUE", item));
    if (!labels.emplace(item.substr(0, eq), item.substr(eq + 1)).second)
      throw CliError(ErrorKind::kUsage, fmt::format("--label '{}': key given twice", item));
  }
  return labels;
}

}  // namespace schedrig
