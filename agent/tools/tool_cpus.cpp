#include "agent/tools/tool_cpus.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "agent/tools/tool_options.h"
#include "common/cpulist.h"

namespace schedrig::tools {

std::string cpulist_inside(const std::string& tool, const std::string& word,
                           const std::string& value, const std::vector<int>& placement) {
  std::vector<int> cpus;
  try {
    cpus = parse_cpulist(value);
  } catch (const std::invalid_argument& e) {
    refuse_argument(tool, word, e.what());
  }
  if (cpus.empty()) refuse_argument(tool, word, "an empty cpulist");
  for (int c : cpus) {
    if (!std::binary_search(placement.begin(), placement.end(), c)) {
      refuse_argument(tool, word,
                      fmt::format("CPU {} is outside the placement's cpulist {}", c,
                                  format_cpulist(placement)));
    }
  }
  return format_cpulist(cpus);
}

}  // namespace schedrig::tools
