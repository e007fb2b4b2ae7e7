#include "agent/workloads/shared_memory.h"

#include <sys/mman.h>

#include <cerrno>
#include <system_error>

namespace schedrig::workloads {

SharedMemory::SharedMemory(std::size_t bytes) : size_(bytes) {
  data_ = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (data_ == MAP_FAILED) {
    data_ = nullptr;
    throw std::system_error(errno, std::generic_category(), "mmap of shared workload memory");
  }
}

SharedMemory::~SharedMemory() {
  if (data_) ::munmap(data_, size_);
}

}  // namespace schedrig::workloads
