// RAII owners for hwloc's C handles (private to agent/topology).
#pragma once

#include <algorithm>
#include <memory>
#include <new>
#include <string_view>
#include <vector>

#include <hwloc.h>

namespace schedrig::topology {

// Owns one hwloc_topology_t from hwloc_topology_init to hwloc_topology_destroy.
// Move-only. Throws std::bad_alloc when hwloc cannot allocate the context.
class HwlocTopology {
 public:
  HwlocTopology() {
    if (hwloc_topology_init(&topo_) != 0) throw std::bad_alloc();
  }
  ~HwlocTopology() {
    if (topo_ != nullptr) hwloc_topology_destroy(topo_);
  }
  HwlocTopology(const HwlocTopology&) = delete;
  HwlocTopology& operator=(const HwlocTopology&) = delete;
  HwlocTopology(HwlocTopology&& other) noexcept : topo_(other.topo_) { other.topo_ = nullptr; }
  HwlocTopology& operator=(HwlocTopology&& other) noexcept {
    if (this != &other) {
      if (topo_ != nullptr) hwloc_topology_destroy(topo_);
      topo_ = other.topo_;
      other.topo_ = nullptr;
    }
    return *this;
  }

  hwloc_topology_t get() const { return topo_; }

 private:
  hwloc_topology_t topo_ = nullptr;
};

struct HwlocBitmapFree {
  void operator()(hwloc_bitmap_t set) const { hwloc_bitmap_free(set); }
};

// An owned hwloc bitmap (cpuset or nodeset).
using HwlocBitmap = std::unique_ptr<hwloc_bitmap_s, HwlocBitmapFree>;

// A new empty bitmap. Throws std::bad_alloc.
inline HwlocBitmap make_bitmap() {
  HwlocBitmap set(hwloc_bitmap_alloc());
  if (!set) throw std::bad_alloc();
  return set;
}

// The set bits of a finite bitmap as sorted PU OS indexes (a cpuset's bits
// are PU OS indexes by hwloc's definition).
inline std::vector<int> bitmap_to_cpus(hwloc_const_bitmap_t set) {
  std::vector<int> cpus;
  for (int i = hwloc_bitmap_first(set); i != -1; i = hwloc_bitmap_next(set, i)) cpus.push_back(i);
  return cpus;
}

// True for a cache that sits on the memory side: hwloc MemCache objects, and
// caches of subtype "MemorySideCache" (as hwloc 2.9 reports KNL's MCDRAM) or
// with a "Type" info of that value (as hwloc 1.x exports wrote it).
inline bool is_memory_side_cache(hwloc_obj_t obj) {
  constexpr std::string_view kMemorySide = "MemorySideCache";
  if (obj->type == HWLOC_OBJ_MEMCACHE) return true;
  if (obj->subtype != nullptr && obj->subtype == kMemorySide) return true;
  const char* type = hwloc_obj_get_info_by_name(obj, "Type");
  return type != nullptr && type == kMemorySide;
}

// Every object of `type`, in hwloc logical order. Where the type sits at
// several depths (Groups from distance grouping above Cluster groups,
// Packages under a Group on one branch only), every depth's, outermost
// first, ordered by first PU.
inline std::vector<hwloc_obj_t> objects_of(hwloc_topology_t topo, hwloc_obj_type_t type) {
  std::vector<hwloc_obj_t> objs;
  if (hwloc_get_type_depth(topo, type) != HWLOC_TYPE_DEPTH_MULTIPLE) {
    for (hwloc_obj_t obj = nullptr; (obj = hwloc_get_next_obj_by_type(topo, type, obj)) != nullptr;)
      objs.push_back(obj);
    return objs;
  }
  const int depths = hwloc_topology_get_depth(topo);
  for (int d = 0; d < depths; ++d) {
    if (hwloc_get_depth_type(topo, d) != type) continue;
    for (hwloc_obj_t obj = nullptr; (obj = hwloc_get_next_obj_by_depth(topo, d, obj)) != nullptr;)
      objs.push_back(obj);
  }
  std::stable_sort(objs.begin(), objs.end(), [](hwloc_obj_t a, hwloc_obj_t b) {
    return hwloc_bitmap_first(a->cpuset) < hwloc_bitmap_first(b->cpuset);
  });
  return objs;
}

// The online PUs of `obj` (its cpuset within the topology's), sorted.
inline std::vector<int> online_cpus_in(hwloc_topology_t topo, hwloc_obj_t obj) {
  HwlocBitmap mine = make_bitmap();
  hwloc_bitmap_and(mine.get(), obj->cpuset, hwloc_topology_get_topology_cpuset(topo));
  return bitmap_to_cpus(mine.get());
}

}  // namespace schedrig::topology
