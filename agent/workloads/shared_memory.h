// Anonymous MAP_SHARED memory that survives fork(2), for counters and flags
// shared between the agent and its workload processes.
#pragma once

#include <cstddef>

namespace schedrig::workloads {

// Owns `bytes` of zeroed shared anonymous memory; unmapped on destruction.
// Throws std::system_error when mmap(2) fails.
class SharedMemory {
 public:
  explicit SharedMemory(std::size_t bytes);
  ~SharedMemory();
  SharedMemory(const SharedMemory&) = delete;
  SharedMemory& operator=(const SharedMemory&) = delete;

  void* data() const { return data_; }
  std::size_t size() const { return size_; }

 private:
  void* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace schedrig::workloads
