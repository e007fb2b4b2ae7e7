// The files a night reads and writes (docs/nightly.md): plans, the selftest
// plan, night.json, the summaries and the history. Reads are bounded and
// take regular files only (a FIFO would hang, /dev/zero would never end);
// writes never go through a link planted in OUT.
#pragma once

#include <cstddef>
#include <ctime>
#include <string>

namespace schedrig::nightly {

inline constexpr std::size_t kMaxPlanFileBytes = std::size_t{1} << 20;
inline constexpr std::size_t kMaxNightStateBytes = std::size_t{16} << 20;

// The whole of `path`, a regular file of at most `max` bytes. Throws
// CliError(kUsage) "F: not a regular file", "F: N bytes; at most MAX",
// "F: cannot read: REASON".
std::string read_bounded_file(const std::string& path, std::size_t max);

// Puts `text` at `path` without writing through a link planted in OUT
// (common/replace_file.h). Throws CliError(kFailed) naming the file and
// errno.
void replace_file(const std::string& path, const std::string& text);

// The directory of a new night started at `start` under `nights` (`nightly
// --nights DIR`, what schedrig-nightly.service runs): DIR/YYYY-MM-DDTHHMMZ
// (UTC), or with -2, -3, ... when that name exists. Creates `nights` (0700
// when new, common/state_dir.h) and the night's own directory (0700, made
// with mkdirat in `nights` so two nights never share one). `nights` must be
// a directory, not a link, of this user or root that group and other may
// not write, and so must every directory above it (unless sticky, like
// /tmp: common/trusted_dir.h): a night's results are what the gate reads. Throws CliError(kUsage) naming DIR when it cannot be made or
// trusted, or when 99 nights already started in that minute.
std::string new_night_dir(const std::string& nights, std::time_t start);

}  // namespace schedrig::nightly
