// ToolPaths: the agent's tools: map, Debian's paths by default
// (agent/tools/tool_paths.h).
#include <gtest/gtest.h>

#include "agent/tools/tool_error.h"
#include "agent/tools/tool_paths.h"

namespace schedrig::tools {
namespace {

std::string error_of(ToolPaths& p, const std::string& text) {
  try {
    set_tool_path(p, text);
  } catch (const ToolArgsError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ToolPaths, DefaultsAreDebiansPathsAndAnEntryReplacesOne) {
  ToolPaths p;
  EXPECT_EQ(p.path_of("stress-ng"), "/usr/bin/stress-ng");
  EXPECT_EQ(p.path_of("hackbench"), "/usr/bin/hackbench");
  EXPECT_EQ(p.path_of("perf"), "/usr/bin/perf");
  EXPECT_EQ(p.path_of("schbench"), "/usr/local/bin/schbench");
  set_tool_path(p, "schbench=/opt/schbench/bin/schbench");
  EXPECT_EQ(p.path_of("schbench"), "/opt/schbench/bin/schbench");
  EXPECT_EQ(p.path_of("stress-ng"), "/usr/bin/stress-ng");
  EXPECT_EQ(p.all().size(), 4U);
}

TEST(ToolPaths, RefusesUnknownToolsRelativePathsAndMissingEquals) {
  ToolPaths p;
  EXPECT_EQ(error_of(p, "sh=/bin/sh"),
            "tools: 'sh' is not a tool schedrig runs (known: hackbench, perf, schbench, "
            "stress-ng)");
  EXPECT_EQ(error_of(p, "schbench=schbench"),
            "tools: schbench: 'schbench' is not an absolute path");
  EXPECT_EQ(error_of(p, "schbench"),
            "--tool 'schbench': expected NAME=PATH (e.g. schbench=/opt/bin/schbench)");
  EXPECT_EQ(error_of(p, "x\x1b[2J=/a"),
            "tools: 'x\\e[2J' is not a tool schedrig runs (known: hackbench, perf, schbench, "
            "stress-ng)");
  EXPECT_THROW(p.path_of("bash"), ToolArgsError);
}

}  // namespace
}  // namespace schedrig::tools
