#include "common/kernel_name.h"

#include <algorithm>

namespace schedrig {

bool valid_kernel_name(const std::string& name) {
  if (name.empty() || name.size() > kMaxKernelNameBytes || name == "current") return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '-';
  });
}

}  // namespace schedrig
