// A tool argument that pins to absolute CPUs (schbench -M/-W, stress-ng
// --taskset), checked against the placement: a tool's affinity is set to
// the placement's cpulist before exec, and an argument must not move it out.
#pragma once

#include <string>
#include <vector>

namespace schedrig::tools {

// `value` (a cpulist, "0-3,8") as the kernel writes it, after checking that
// it is non-empty and every CPU lies in `placement` (sorted). Throws
// ToolArgsError "TOOL: argument 'WORD': CPU 9 is outside the placement's
// cpulist 0-3".
std::string cpulist_inside(const std::string& tool, const std::string& word,
                           const std::string& value, const std::vector<int>& placement);

}  // namespace schedrig::tools
