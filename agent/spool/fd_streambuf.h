// An input std::streambuf over a file descriptor (not owned), so the checked
// record reader (common/record/record_frame.h) can read a file opened with
// O_NOFOLLOW. Reads at most `limit` bytes from the fd's current offset; a
// read error ends the stream like EOF and is kept in error(), so a reader can
// tell damage on disk from a file that simply ends.
#pragma once

#include <array>
#include <cstdint>
#include <streambuf>

namespace schedrig::spool {

class FdStreamBuf : public std::streambuf {
 public:
  FdStreamBuf(int fd, std::uint64_t limit) : fd_(fd), left_(limit) {}

  // The errno of the read that failed, 0 when none did.
  int error() const { return error_; }

 protected:
  int_type underflow() override;

 private:
  int fd_;
  std::uint64_t left_;
  int error_ = 0;
  std::array<char, 64 * 1024> buf_{};
};

}  // namespace schedrig::spool
