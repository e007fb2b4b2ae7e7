// /proc/pressure/cpu (Documentation/accounting/psi.rst):
//   some avg10=0.00 avg60=0.13 avg300=1.95 total=23455361
//   full avg10=0.00 avg60=0.00 avg300=0.00 total=0
// avgN are percentages over 10/60/300 s; total is microseconds of stall
// since boot. "full" for CPU exists since 5.13; older kernels print "some"
// only. With psi=0 on the kernel command line the file is absent or reads
// fail with EOPNOTSUPP.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace schedrig::sampler {

struct PressureLine {
  double avg10 = 0, avg60 = 0, avg300 = 0;  // %
  std::uint64_t total_us = 0;
};

struct Pressure {
  std::optional<PressureLine> some;
  std::optional<PressureLine> full;
};

// Throws SamplerError (kFailed) when a some/full line is malformed or neither exists.
Pressure parse_pressure(std::string_view text);

}  // namespace schedrig::sampler
