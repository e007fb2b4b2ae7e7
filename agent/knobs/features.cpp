#include "agent/knobs/features.h"

#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include "agent/knobs/allowlist.h"
#include "agent/knobs/knob.h"
#include "agent/knobs/knob_file.h"
#include "agent/knobs/knob_paths.h"

namespace schedrig::knobs {

std::map<std::string, bool> parse_features(const std::string& line, const std::string& source) {
  std::map<std::string, bool> out;
  std::istringstream in(line);
  std::string token;
  while (in >> token) {
    bool on = token.rfind("NO_", 0) != 0;
    std::string name = on ? token : token.substr(3);
    if (name.empty()) throw KnobError(fmt::format("{}: malformed token '{}'", source, token));
    out[name] = on;
  }
  if (out.empty()) throw KnobError(fmt::format("{}: lists no features", source));
  return out;
}

FeaturesFile::FeaturesFile(const procfs::Root& root) : path_(features_path(root)) {}

std::map<std::string, bool> FeaturesFile::read() const {
  return parse_features(read_knob_file(path_), path_);
}

std::string unknown_feature(const std::string& name, const std::vector<std::string>& names,
                            const std::string& source) {
  auto near = close_matches(name, names);
  return fmt::format("sched feature '{}' is not in {} ({} features){}", name, source, names.size(),
                     near.empty() ? "" : fmt::format("; did you mean {}?", fmt::join(near, ", ")));
}

std::vector<std::string> FeaturesFile::names() const {
  std::vector<std::string> out;
  for (const auto& [name, on] : read()) out.push_back(name);
  return out;
}

void FeaturesFile::check_known(const std::string& name) const {
  const std::vector<std::string> known = names();
  if (std::find(known.begin(), known.end(), name) != known.end()) return;
  throw KnobError(unknown_feature(name, known, path_));
}

void FeaturesFile::set(const std::string& name, bool on) const {
  check_known(name);
  const std::string token = on ? name : "NO_" + name;
  write_knob_file(path_, token);
  if (read().at(name) != on) {
    throw KnobUnavailable(fmt::format("wrote '{}' to {} but it did not take: {} is still {}", token,
                                      path_, name, on ? "off" : "on"),
                          EIO);
  }
}

}  // namespace schedrig::knobs
