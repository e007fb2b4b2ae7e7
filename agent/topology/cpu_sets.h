// Set operations on sorted PU lists (the shape of every cpus field of a
// Topology), shared by the topology extraction, the domain builder and the
// placement policies.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <vector>

namespace schedrig::topology {

// a ∪ b; both sorted, the result sorted.
inline std::vector<int> unite(const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<int> out;
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

// a ∩ b; both sorted, the result sorted.
inline std::vector<int> intersect(const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<int> out;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

// part ⊆ whole.
inline bool subset(const std::vector<int>& part, const std::vector<int>& whole) {
  return std::includes(whole.begin(), whole.end(), part.begin(), part.end());
}

// part ⊊ whole.
inline bool strict_subset(const std::vector<int>& part, const std::vector<int>& whole) {
  return part.size() < whole.size() && subset(part, whole);
}

inline bool holds(const std::vector<int>& set, int cpu) {
  return std::binary_search(set.begin(), set.end(), cpu);
}

// The index of the first of `sets` holding `cpu`, or -1.
inline int index_holding(const std::vector<std::vector<int>>& sets, int cpu) {
  for (std::size_t i = 0; i < sets.size(); ++i)
    if (holds(sets[i], cpu)) return static_cast<int>(i);
  return -1;
}

// The first of `sets` holding `cpu`, or an empty set.
inline std::vector<int> set_holding(const std::vector<std::vector<int>>& sets, int cpu) {
  const int i = index_holding(sets, cpu);
  return i < 0 ? std::vector<int>{} : sets[static_cast<std::size_t>(i)];
}

}  // namespace schedrig::topology
