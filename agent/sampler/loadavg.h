// /proc/loadavg (proc(5)): "0.20 0.18 0.12 1/80 11206": load averages over
// 1, 5 and 15 minutes, runnable/total scheduling entities, last PID.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string_view>

namespace schedrig::sampler {

struct Loadavg {
  double load1 = 0, load5 = 0, load15 = 0;
  std::uint32_t running = 0;  // currently runnable entities
  std::uint32_t total = 0;    // entities that exist
  pid_t last_pid = 0;
};

// Throws SamplerError (kFailed) on a malformed line.
Loadavg parse_loadavg(std::string_view text);

}  // namespace schedrig::sampler
