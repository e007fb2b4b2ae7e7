// Logging setup for both binaries: spdlog to stderr,
// "[HH:MM:SS.mmm] [name] [level] message".
#pragma once

#include <string>
#include <vector>

namespace schedrig {

// The level names init_logging accepts, for CLI checks.
inline const std::vector<std::string> kLogLevels = {"trace", "debug", "info",
                                                    "warn",  "error", "off"};

// Installs the default stderr logger called `name`. `level` is an spdlog
// level name ("trace", "debug", "info", "warn", "error", "off"); an unknown
// name throws std::invalid_argument.
void init_logging(const std::string& name, const std::string& level = "info");

}  // namespace schedrig
