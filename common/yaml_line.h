// The 1-based line of a yaml-cpp node, for errors that name file and line.
#pragma once

#include <yaml-cpp/yaml.h>

namespace schedrig {

// The node's 1-based line in its document, or 0 when yaml-cpp has no mark
// for it (a node built in memory).
inline int yaml_line(const YAML::Node& node) {
  return node.Mark().is_null() ? 0 : node.Mark().line + 1;
}

}  // namespace schedrig
