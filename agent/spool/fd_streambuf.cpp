#include "agent/spool/fd_streambuf.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace schedrig::spool {

FdStreamBuf::int_type FdStreamBuf::underflow() {
  if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
  if (left_ == 0 || error_ != 0) return traits_type::eof();
  const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(left_, buf_.size()));
  ssize_t n = 0;
  do {
    n = ::read(fd_, buf_.data(), want);
  } while (n < 0 && errno == EINTR);
  if (n <= 0) {
    if (n < 0) error_ = errno;
    return traits_type::eof();
  }
  left_ -= static_cast<std::uint64_t>(n);
  setg(buf_.data(), buf_.data(), buf_.data() + n);
  return traits_type::to_int_type(*gptr());
}

}  // namespace schedrig::spool
