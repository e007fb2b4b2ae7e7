// cpulists as the kernel prints them (Documentation/admin-guide/cputopology.rst,
// "0-3,8,10-11"), converted to and from sorted PU OS indexes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace schedrig {

// Parses "0-3,8" into {0,1,2,3,8}, sorted and without repeats. Accepts the
// kernel's stride form "0-7:2" too. An empty or all-blank string is the empty
// set. Throws std::invalid_argument naming the text and the bad token.
std::vector<int> parse_cpulist(std::string_view text);

// Formats sorted or unsorted PU indexes as the shortest cpulist ("0-3,8").
std::string format_cpulist(std::vector<int> cpus);

}  // namespace schedrig
