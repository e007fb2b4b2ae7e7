#include "host/nightly/night_schedule.h"

namespace schedrig::nightly {

std::vector<NightSlot> night_slots(const LabFile& lab) {
  std::vector<NightSlot> out;
  const std::vector<std::string> kernels =
      lab.kernels.empty() ? std::vector<std::string>{"current"} : lab.kernels;
  for (unsigned round = 1; round <= lab.boots_per_kernel; ++round) {
    for (const std::string& k : kernels) {
      out.push_back({static_cast<unsigned>(out.size()) + 1, k, round, !lab.kernels.empty()});
    }
  }
  return out;
}

}  // namespace schedrig::nightly
