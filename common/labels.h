// Run labels from the command line (`--label kernel=6.19-rc3`, docs/architecture.md
// "Identity"): free KEY=VALUE pairs that travel with a run.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace schedrig {

// Each item as KEY=VALUE (VALUE may be empty or hold '='). Throws CliError
// (exit 2) naming the item for a missing '=', an empty KEY, or a KEY given
// twice.
std::map<std::string, std::string> parse_labels(const std::vector<std::string>& items);

}  // namespace schedrig
