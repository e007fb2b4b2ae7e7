#include "common/labels.h"

#include <fmt/format.h>

#include "common/cli_error.h"

namespace schedrig {

bool label_fits(const std::string& key, const std::string& value) {
  return !key.empty() && key.size() <= kMaxLabelKeyBytes && value.size() <= kMaxLabelValueBytes;
}

std::string label_bounds_text() {
  return fmt::format("want a key of 1..{} bytes and a value of at most {} bytes", kMaxLabelKeyBytes,
                     kMaxLabelValueBytes);
}

std::map<std::string, std::string> parse_labels(const std::vector<std::string>& items) {
  std::map<std::string, std::string> labels;
  for (const auto& item : items) {
    const auto eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw CliError(ErrorKind::kUsage, fmt::format("--label '{}': want KEY=VALUE", item));
    if (!label_fits(item.substr(0, eq), item.substr(eq + 1))) {
      throw CliError(ErrorKind::kUsage,
                     fmt::format("--label '{}...': {}", item.substr(0, 40), label_bounds_text()));
    }
    if (!labels.emplace(item.substr(0, eq), item.substr(eq + 1)).second)
      throw CliError(ErrorKind::kUsage, fmt::format("--label '{}': key given twice", item));
  }
  if (labels.size() > kMaxLabels) {
    throw CliError(ErrorKind::kUsage,
                   fmt::format("--label: {} labels; at most {}", labels.size(), kMaxLabels));
  }
  return labels;
}

}  // namespace schedrig
