// The sampler's rate as plans and command lines give it (issue #6):
// 0 turns sampling off, else kMinSampleHz..kMaxSampleHz samples per second.
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

namespace schedrig {

inline constexpr double kMinSampleHz = 0.01;  // one sample per 100 s
inline constexpr double kMaxSampleHz = 20;

// "" when `hz` is 0 or within [kMinSampleHz, kMaxSampleHz]; else why not.
inline std::string sample_hz_problem(double hz) {
  if (hz == 0 || (hz >= kMinSampleHz && hz <= kMaxSampleHz)) return "";
  return fmt::format("{} is not a sample rate: give 0 (off) or {} to {} samples per second", hz,
                     kMinSampleHz, kMaxSampleHz);
}

// For a command-line check (CLI11's `check` callback): "" when `text` is a
// number that sample_hz_problem accepts; else why not.
inline std::string sample_hz_text_problem(const std::string& text) {
  std::size_t used = 0;
  double hz = 0;
  try {
    hz = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || std::isnan(hz)) {
    return fmt::format("'{}' is not a number of samples per second", text);
  }
  return sample_hz_problem(hz);
}

}  // namespace schedrig
