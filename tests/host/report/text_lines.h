// Splitting console output for assertions: into lines, a line into words.
#pragma once

#include <sstream>
#include <string>
#include <vector>

namespace schedrig::testing {

using Words = std::vector<std::string>;

// `text` split at '\n' (no trailing empty line).
inline std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// `line` split at runs of blanks: the cells of an aligned table row.
inline Words words(const std::string& line) {
  Words out;
  std::istringstream in(line);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

}  // namespace schedrig::testing
