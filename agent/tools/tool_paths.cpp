#include "agent/tools/tool_paths.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "agent/tools/tool_error.h"
#include "common/printable.h"

namespace schedrig::tools {

const std::map<std::string, std::string, std::less<>>& default_tool_paths() {
  static const std::map<std::string, std::string, std::less<>> paths{
      {"hackbench", "/usr/bin/hackbench"},
      {"perf", "/usr/bin/perf"},
      {"schbench", "/usr/local/bin/schbench"},
      {"stress-ng", "/usr/bin/stress-ng"}};
  return paths;
}

ToolPaths::ToolPaths() : paths_(default_tool_paths()) {}

void ToolPaths::set(std::string_view tool, const std::string& path) {
  auto it = paths_.find(tool);
  if (it == paths_.end()) {
    std::vector<std::string> names;
    for (const auto& [name, _] : default_tool_paths()) names.push_back(name);
    throw ToolArgsError(fmt::format("tools: '{}' is not a tool schedrig runs (known: {})",
                                    printable(std::string(tool)), fmt::join(names, ", ")));
  }
  if (path.empty() || path[0] != '/') {
    throw ToolArgsError(
        fmt::format("tools: {}: '{}' is not an absolute path", it->first, printable(path)));
  }
  it->second = path;
}

const std::string& ToolPaths::path_of(std::string_view tool) const {
  auto it = paths_.find(tool);
  if (it == paths_.end()) {
    throw ToolArgsError(fmt::format("tools: no binary for '{}'", printable(std::string(tool))));
  }
  return it->second;
}

void set_tool_path(ToolPaths& paths, const std::string& name_eq_path) {
  const auto eq = name_eq_path.find('=');
  if (eq == std::string::npos) {
    throw ToolArgsError(
        fmt::format("--tool '{}': expected NAME=PATH (e.g. schbench=/opt/bin/schbench)",
                    printable(name_eq_path)));
  }
  paths.set(std::string_view(name_eq_path).substr(0, eq), name_eq_path.substr(eq + 1));
}

std::string tool_path_problem(const std::string& name_eq_path) {
  ToolPaths paths;
  try {
    set_tool_path(paths, name_eq_path);
  } catch (const ToolArgsError& e) {
    return e.what();
  }
  return "";
}

}  // namespace schedrig::tools
