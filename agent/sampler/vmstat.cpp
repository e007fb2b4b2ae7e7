#include "agent/sampler/vmstat.h"

#include <utility>

#include "agent/sampler/text_scan.h"

namespace schedrig::sampler {

Vmstat parse_vmstat(std::string_view text) {
  Vmstat v;
  const std::pair<std::string_view, std::optional<std::uint64_t>*> keys[] = {
      {"numa_hit", &v.numa_hit},
      {"numa_miss", &v.numa_miss},
      {"numa_foreign", &v.numa_foreign},
      {"numa_local", &v.numa_local},
      {"numa_other", &v.numa_other},
      {"numa_pages_migrated", &v.numa_pages_migrated},
      {"pgmigrate_success", &v.pgmigrate_success},
  };
  for_each_line(text, [&](std::string_view line) {
    if (!line.starts_with("numa_") && !line.starts_with("pgmigrate_")) return;
    const auto f = split_fields(line);
    std::uint64_t value = 0;
    if (f.size() != 2 || !parse_u64(f[1], value)) return;
    for (const auto& [key, slot] : keys) {
      if (f[0] == key) *slot = value;
    }
  });
  return v;
}

}  // namespace schedrig::sampler
