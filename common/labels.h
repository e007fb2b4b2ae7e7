// Run labels from the command line (`--label kernel=6.19-rc3`, docs/architecture.md
// "Identity"): free KEY=VALUE pairs that travel with a run.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace schedrig {

// Bounds on a run's labels, wherever they come from (API, plan file).
inline constexpr std::size_t kMaxLabels = 64;
inline constexpr std::size_t kMaxLabelKeyBytes = 128;
inline constexpr std::size_t kMaxLabelValueBytes = 1024;

// True when KEY=VALUE is within the bounds: a key of 1..kMaxLabelKeyBytes
// bytes, a value of at most kMaxLabelValueBytes.
bool label_fits(const std::string& key, const std::string& value);

// "want a key of 1..128 bytes and a value of at most 1024 bytes": what an
// error says of a label that does not fit.
std::string label_bounds_text();

// Each item as KEY=VALUE (VALUE may be empty or hold '='). Throws CliError
// (exit 2) naming the item for a missing '=', an empty KEY, a KEY given
// twice, or a label over the bounds (label_fits, kMaxLabels).
std::map<std::string, std::string> parse_labels(const std::vector<std::string>& items);

}  // namespace schedrig
