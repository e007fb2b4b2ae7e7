// Kernel names as a lab names them (docs/nightly.md "The lab file"): a lab
// file's `kernels:`, a Boot, an agent's `kernels:` table. A name only: how a
// box boots it stays in that box's configuration.
#pragma once

#include <cstddef>
#include <string>

namespace schedrig {

inline constexpr std::size_t kMaxKernelNameBytes = 64;

// True for [A-Za-z0-9._-], 1..64 bytes, not "current" (a lab file's word
// for "whatever the box runs now").
bool valid_kernel_name(const std::string& name);

}  // namespace schedrig
