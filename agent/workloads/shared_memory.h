// Shared memory for counters and flags shared between the agent and its
// workload processes: an anonymous memfd (memfd_create(2)), mapped
// MAP_SHARED. It survives fork(2), and exec(2) too through its fd, and has no
// name anywhere (/dev/shm stays clean): it is gone once the last mapping and
// fd are.
#pragma once

#include <cstddef>

namespace schedrig::workloads {

// Owns `bytes` of zeroed shared memory and its memfd (close-on-exec); both
// released on destruction. Throws std::system_error when memfd_create(2),
// ftruncate(2) or mmap(2) fails.
class SharedMemory {
 public:
  explicit SharedMemory(std::size_t bytes);
  ~SharedMemory();
  SharedMemory(const SharedMemory&) = delete;
  SharedMemory& operator=(const SharedMemory&) = delete;

  void* data() const { return data_; }
  std::size_t size() const { return size_; }
  // The memfd, for a process that execs and maps it again (clear its
  // FD_CLOEXEC in that process first).
  int fd() const { return fd_; }

 private:
  void* data_ = nullptr;
  std::size_t size_ = 0;
  int fd_ = -1;
};

}  // namespace schedrig::workloads
