// A workload iteration that could not run (a process that could not be
// started or pinned). what() names the workload and the reason.
#pragma once

#include <stdexcept>

namespace schedrig::workloads {

class WorkloadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace schedrig::workloads
