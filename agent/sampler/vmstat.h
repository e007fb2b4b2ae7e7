// The NUMA and migration counters of /proc/vmstat ("key value" lines; the
// key set differs between kernels, so lookup is by key). A key the kernel
// does not print (no CONFIG_NUMA, older kernel) stays empty.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace schedrig::sampler {

struct Vmstat {
  std::optional<std::uint64_t> numa_hit, numa_miss, numa_foreign, numa_local, numa_other,
      numa_pages_migrated, pgmigrate_success;  // pages / events since boot
};

// Unknown keys and malformed lines are ignored (the file is an open set).
Vmstat parse_vmstat(std::string_view text);

}  // namespace schedrig::sampler
