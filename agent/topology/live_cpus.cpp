// sched_getaffinity and libnuma, for the live machine only.
#include "agent/topology/live_cpus.h"

#include <cerrno>
#include <memory>
#include <system_error>

#include <numa.h>
#include <sched.h>

namespace schedrig::topology {
namespace {

struct CpuSetFree {
  void operator()(cpu_set_t* set) const { CPU_FREE(set); }
};

struct NumaMaskFree {
  void operator()(bitmask* mask) const { numa_bitmask_free(mask); }
};

}  // namespace

std::vector<int> affinity_cpus() {
  // Kernels built with large NR_CPUS refuse a mask smaller than theirs (EINVAL).
  for (int ncpus = 1024; ncpus <= (1 << 20); ncpus *= 2) {
    std::unique_ptr<cpu_set_t, CpuSetFree> set(CPU_ALLOC(ncpus));
    if (!set) throw std::bad_alloc();
    const std::size_t size = CPU_ALLOC_SIZE(ncpus);
    CPU_ZERO_S(size, set.get());
    if (sched_getaffinity(0, size, set.get()) != 0) {
      if (errno == EINVAL) continue;
      throw std::system_error(errno, std::generic_category(), "sched_getaffinity");
    }
    std::vector<int> cpus;
    for (int cpu = 0; cpu < ncpus; ++cpu) {
      if (CPU_ISSET_S(cpu, size, set.get())) cpus.push_back(cpu);
    }
    return cpus;
  }
  throw std::system_error(EINVAL, std::generic_category(),
                          "sched_getaffinity: no mask size up to 2^20 CPUs accepted");
}

std::optional<std::vector<int>> libnuma_node_cpus(unsigned node) {
  if (numa_available() < 0) return std::nullopt;
  std::unique_ptr<bitmask, NumaMaskFree> mask(numa_allocate_cpumask());
  if (!mask || numa_node_to_cpus(static_cast<int>(node), mask.get()) != 0) return std::nullopt;
  std::vector<int> cpus;
  for (unsigned cpu = 0; cpu < mask->size; ++cpu) {
    if (numa_bitmask_isbitset(mask.get(), cpu)) cpus.push_back(static_cast<int>(cpu));
  }
  return cpus;
}

std::optional<std::vector<std::vector<unsigned>>> libnuma_distances(
    const std::vector<unsigned>& nodes) {
  if (nodes.empty() || numa_available() < 0) return std::nullopt;
  std::vector<std::vector<unsigned>> m(nodes.size(), std::vector<unsigned>(nodes.size(), 0));
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    for (std::size_t j = 0; j < nodes.size(); ++j) {
      const int d = numa_distance(static_cast<int>(nodes[i]), static_cast<int>(nodes[j]));
      if (d <= 0) return std::nullopt;
      m[i][j] = static_cast<unsigned>(d);
    }
  }
  return m;
}

}  // namespace schedrig::topology
