// Naming one run on the command line: its run_id or a unique prefix of it
// (compare, results --samples, watch).
#pragma once

#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/cli_error.h"

namespace schedrig::host {

// The one id of `ids` that `id` names: an exact match, else the only one it
// prefixes. Throws CliError (exit 2) "no run matches 'ID'", or, when several
// match, one that lists them and asks for more of the id.
inline std::string match_run_id(const std::vector<std::string>& ids, const std::string& id) {
  std::vector<std::string> matches;
  for (const auto& r : ids) {
    if (r == id) return r;
    if (r.rfind(id, 0) == 0) matches.push_back(r);
  }
  if (matches.empty()) throw CliError(ErrorKind::kUsage, fmt::format("no run matches '{}'", id));
  if (matches.size() > 1) {
    throw CliError(ErrorKind::kUsage,
                   fmt::format("'{}' matches {} runs ({}); give more of the run id", id,
                               matches.size(), fmt::join(matches, ", ")));
  }
  return matches.front();
}

}  // namespace schedrig::host
