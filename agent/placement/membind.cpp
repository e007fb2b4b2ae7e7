// Memory binding: parse against the topology, apply with libnuma.
#include "agent/placement/membind.h"

#include <algorithm>
#include <cerrno>
#include <memory>
#include <mutex>
#include <string_view>
#include <system_error>

#include <fmt/format.h>
#include <numa.h>
#include <numaif.h>
#include <spdlog/spdlog.h>

#include "common/cpulist.h"
#include "common/parse_whole.h"

namespace schedrig::placement {
namespace {

constexpr std::string_view kSupportedMembind = "supported: local, node:N, interleave";

[[noreturn]] void refuse_membind(const std::string& text, const std::string& reason) {
  throw PlacementError(fmt::format("membind '{}': {}; {}", text, reason, kSupportedMembind));
}

struct MaskFree {
  void operator()(bitmask* m) const { numa_bitmask_free(m); }
};
using Mask = std::unique_ptr<bitmask, MaskFree>;

// The calling thread's policy mode as the kernel reports it, without the
// mode flags (MPOL_F_STATIC_NODES and friends live above the low byte).
int current_mode() {
  int mode = -1;
  if (get_mempolicy(&mode, nullptr, 0, nullptr, 0) != 0)
    throw std::system_error(errno, std::generic_category(), "get_mempolicy");
  return mode & 0xff;
}

// Throws unless the thread's policy is now `want` (or `also`) over `nodes`
// (nullptr: no node mask to compare).
void expect_policy(const MemBind& b, int want, int also, const bitmask* nodes, bitmask* now) {
  const int mode = current_mode();
  const bool same_nodes = nodes == nullptr || (now != nullptr && numa_bitmask_equal(nodes, now));
  if (now != nullptr) numa_bitmask_free(now);
  if ((mode != want && mode != also) || !same_nodes) {
    throw std::system_error(EINVAL, std::generic_category(),
                            fmt::format("membind '{}': the kernel did not take memory policy "
                                        "mode {} over the nodes asked for (it reports mode {}); "
                                        "libnuma printed the reason on stderr",
                                        b.text, want, mode));
  }
}

// Refuses node `n` when the topology gives node sizes and n's is 0 bytes
// (a node whose memory is offline or all reserved): set_mempolicy(2) would
// take the binding and every allocation would then fail.
void check_has_memory(const std::string& text, unsigned n, const topology::Topology& t) {
  std::vector<int> with_memory;
  bool empty = false;
  for (const topology::NumaNode& node : t.numa_nodes) {
    if (node.memory_bytes > 0) with_memory.push_back(static_cast<int>(node.os_index));
    if (node.os_index == n && node.memory_bytes == 0) empty = true;
  }
  if (!empty || with_memory.empty()) return;  // no node reports a size: nothing to check
  refuse_membind(text, fmt::format("NUMA node {} has no memory (0 bytes); nodes with memory: {}", n,
                                   format_cpulist(with_memory)));
}

}  // namespace

MemBind parse_membind(const std::string& text, const topology::Topology& t) {
  std::vector<int> ids;
  for (const topology::NumaNode& n : t.numa_nodes) ids.push_back(static_cast<int>(n.os_index));
  MemBind out;
  out.text = text;
  if (text == "local") return out;
  if (text == "interleave") {
    out.mode = MemBind::Mode::kInterleave;
    for (const topology::NumaNode& n : t.numa_nodes)
      if (n.memory_bytes > 0) out.nodes.push_back(n.os_index);
    if (out.nodes.empty())
      for (const topology::NumaNode& n : t.numa_nodes) out.nodes.push_back(n.os_index);
    if (out.nodes.empty()) refuse_membind(text, "this topology has no NUMA node");
    std::sort(out.nodes.begin(), out.nodes.end());
    return out;
  }
  constexpr std::string_view kNode = "node:";
  if (text.starts_with(kNode)) {
    const std::string_view arg = std::string_view(text).substr(kNode.size());
    const auto parsed = try_parse_whole<unsigned>(arg);
    if (!parsed)
      refuse_membind(text, fmt::format("'{}' is not a NUMA node number (want e.g. node:0)", arg));
    const unsigned n = *parsed;
    if (std::find(ids.begin(), ids.end(), static_cast<int>(n)) == ids.end()) {
      refuse_membind(text,
                     fmt::format("no NUMA node {}; this machine has {} {} ({})", n, ids.size(),
                                 ids.size() == 1 ? "node" : "nodes", format_cpulist(ids)));
    }
    check_has_memory(text, n, t);
    out.mode = MemBind::Mode::kNode;
    out.nodes = {n};
    return out;
  }
  refuse_membind(text, "unknown memory binding");
}

bool apply_membind(const MemBind& b) {
  if (numa_available() < 0) {
    static std::once_flag once;
    std::call_once(once, [&] {
      spdlog::warn(
          "membind '{}': this kernel has no NUMA support (numa_available() < 0); workloads "
          "run without memory binding",
          b.text);
    });
    return false;
  }
  if (b.mode == MemBind::Mode::kLocal) {
    numa_set_localalloc();
    expect_policy(b, MPOL_LOCAL, MPOL_DEFAULT, nullptr, nullptr);  // older libnuma: DEFAULT
    return true;
  }
  Mask mask(numa_allocate_nodemask());
  if (!mask) throw std::bad_alloc();
  for (unsigned node : b.nodes) {
    if (node >= mask->size) {
      throw std::system_error(EINVAL, std::generic_category(),
                              fmt::format("membind '{}': node {} is beyond libnuma's {} nodes",
                                          b.text, node, mask->size));
    }
    numa_bitmask_setbit(mask.get(), node);
  }
  if (b.mode == MemBind::Mode::kNode) {
    numa_set_membind(mask.get());
    expect_policy(b, MPOL_BIND, MPOL_BIND, mask.get(), numa_get_membind());
  } else {
    numa_set_interleave_mask(mask.get());
    expect_policy(b, MPOL_INTERLEAVE, MPOL_INTERLEAVE, mask.get(), numa_get_interleave_mask());
  }
  return true;
}

}  // namespace schedrig::placement
