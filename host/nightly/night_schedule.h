// The order of a night on one box (docs/nightly.md "The schedule"): boots
// interleaved A B A B ... so that drift over the night falls on every
// kernel alike, boots_per_kernel of each; every boot runs every plan, then
// the selftest.
#pragma once

#include <string>
#include <vector>

#include "host/nightly/lab_file.h"

namespace schedrig::nightly {

// One boot of the night.
struct NightSlot {
  unsigned index = 0;  // 1-based, in order
  std::string kernel;  // "current": no boot (the box's running kernel)
  unsigned boot = 0;   // 1-based among this kernel's boots
  bool reboot = true;  // false for `current`
};

// The slots of `lab` for one agent: round r (1..boots_per_kernel) boots each
// kernel in the order listed. `kernels: current`: boots_per_kernel slots
// without a reboot (one boot: no boot-level verdict; the note says so).
std::vector<NightSlot> night_slots(const LabFile& lab);

}  // namespace schedrig::nightly
