#include "agent/workloads/shared_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

namespace schedrig::workloads {

SharedMemory::SharedMemory(std::size_t bytes) : size_(bytes) {
  fd_ = ::memfd_create("schedrig-workload", MFD_CLOEXEC);
  if (fd_ < 0) throw std::system_error(errno, std::generic_category(), "memfd_create");
  if (::ftruncate(fd_, static_cast<off_t>(bytes)) != 0) {
    int err = errno;
    ::close(fd_);
    throw std::system_error(err, std::generic_category(), "ftruncate of shared workload memory");
  }
  data_ = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd_, 0);
  if (data_ == MAP_FAILED) {
    int err = errno;
    data_ = nullptr;
    ::close(fd_);
    throw std::system_error(err, std::generic_category(), "mmap of shared workload memory");
  }
}

SharedMemory::~SharedMemory() {
  if (data_) ::munmap(data_, size_);
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace schedrig::workloads
