// Baselines over time (docs/nightly.md "Baselines"): one line per night,
// agent, plan and kernel in a JSON-lines file, saying whether that kernel
// passed every gate there and which runs stand behind it. `baseline:
// last_good` is the newest kernel that passed on that agent for that plan.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace schedrig::nightly {

struct HistoryEntry {
  std::string night, agent, plan, kernel;
  bool passed = false;
  std::vector<std::string> runs;  // run ids
};

inline constexpr std::size_t kMaxHistoryBytes = std::size_t{64} << 20;

// Appends `entries` to `path` (created 0600 when missing; never through a
// link). Throws std::runtime_error naming the file.
void append_history(const std::string& path, const std::vector<HistoryEntry>& entries);

// The newest entry of `agent` and `plan` that passed; nullopt when none or
// the file is missing. Lines that do not parse are skipped. Throws
// CliError(kUsage) for a file that is not regular or is over
// kMaxHistoryBytes (night_files.h).
std::optional<HistoryEntry> last_good(const std::string& path, const std::string& agent,
                                      const std::string& plan);

}  // namespace schedrig::nightly
