// Which binary runs for each tool name: the agent's `tools:` map
// (docs/architecture.md "Agent config"), never a plan. Defaults are where
// Debian installs each tool; schbench is not packaged, so its default is
// where docs/workloads.md "External tools" says to install it.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace schedrig::tools {

// The tool names a `tools:` map may set, with their default paths:
// schbench /usr/local/bin/schbench, stress-ng /usr/bin/stress-ng,
// hackbench /usr/bin/hackbench (rt-tests), perf /usr/bin/perf (linux-perf).
const std::map<std::string, std::string, std::less<>>& default_tool_paths();

class ToolPaths {
 public:
  ToolPaths();  // the defaults

  // Sets `tool`'s binary. Throws ToolArgsError for a tool name not in
  // default_tool_paths() (naming the known ones) or a path that is not
  // absolute. The binary itself is checked when a plan names the tool
  // (trusted_tool_binary, tool_binary.h), so a box without it still starts.
  void set(std::string_view tool, const std::string& path);

  // The binary for `tool` (a name of default_tool_paths()).
  const std::string& path_of(std::string_view tool) const;

  const std::map<std::string, std::string, std::less<>>& all() const { return paths_; }

 private:
  std::map<std::string, std::string, std::less<>> paths_;
};

// "NAME=PATH" (the agent's --tool flag) into `paths`. Throws ToolArgsError
// naming the text when there is no '=' or ToolPaths::set refuses it.
void set_tool_path(ToolPaths& paths, const std::string& name_eq_path);

// "" when set_tool_path would take `name_eq_path`, else its reason: the
// check of every --tool flag (agent commands and `schedrig lab`).
std::string tool_path_problem(const std::string& name_eq_path);

}  // namespace schedrig::tools
