#include "common/procfs/file_reader.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <utility>

#include "common/procfs/read_error.h"

namespace schedrig::procfs {
namespace {

constexpr std::size_t kInitialBuffer = 4096;

// The first buffer size: 4 KiB, or one byte over the bound when that is
// smaller (the extra byte tells a file of exactly max_bytes from a longer one).
std::size_t initial_size(std::size_t max_bytes) { return std::min(kInitialBuffer, max_bytes + 1); }

// 0 when the open file is a regular file; else the errno to report:
// EISDIR for a directory, EINVAL for a FIFO, socket or device.
int file_type_error(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return errno;
  if (S_ISREG(st.st_mode)) return 0;
  return S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
}

}  // namespace

FileReader::FileReader(const std::filesystem::path& path, std::size_t max_bytes)
    : path_(path.string()), max_bytes_(max_bytes), buf_(initial_size(max_bytes), '\0') {
  // O_NONBLOCK: a FIFO planted in a fake tree opens at once instead of
  // waiting for a writer; it is then refused as not a regular file.
  fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd_ < 0) {
    errno_ = errno;
    return;
  }
  errno_ = file_type_error(fd_);
  not_regular_ = errno_ == EINVAL;
  if (errno_ != 0) close();
}

FileReader::~FileReader() { close(); }

FileReader::FileReader(FileReader&& other) noexcept
    : path_(std::move(other.path_)),
      max_bytes_(other.max_bytes_),
      fd_(std::exchange(other.fd_, -1)),
      errno_(other.errno_),
      not_regular_(other.not_regular_),
      buf_(std::move(other.buf_)) {}

FileReader& FileReader::operator=(FileReader&& other) noexcept {
  if (this != &other) {
    close();
    path_ = std::move(other.path_);
    max_bytes_ = other.max_bytes_;
    fd_ = std::exchange(other.fd_, -1);
    errno_ = other.errno_;
    not_regular_ = other.not_regular_;
    buf_ = std::move(other.buf_);
  }
  return *this;
}

void FileReader::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

bool FileReader::read(std::string_view& text) {
  if (fd_ < 0) {
    if (errno_ == 0) errno_ = EBADF;  // never opened (default-constructed)
    return false;
  }
  if (buf_.empty()) buf_.resize(initial_size(max_bytes_));
  for (;;) {
    const ssize_t n = ::pread(fd_, buf_.data(), buf_.size(), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      errno_ = errno;
      return false;
    }
    if (static_cast<std::size_t>(n) < buf_.size()) {
      errno_ = 0;
      text = std::string_view(buf_.data(), static_cast<std::size_t>(n));
      return true;
    }
    if (buf_.size() > max_bytes_) {  // max_bytes + 1 bytes read: over the bound
      errno_ = EFBIG;
      return false;
    }
    // Did not fit: grow (up to one byte over the bound) and read again from 0.
    buf_.resize(std::min(buf_.size() * 2, max_bytes_ + 1));
  }
}

std::string FileReader::error_text() const {
  if (not_regular_) return "not a regular file: " + errno_text(errno_);
  if (errno_ == EFBIG) return "larger than " + std::to_string(max_bytes_) + " bytes";
  return errno_text(errno_);
}

std::string_view FileReader::read_or_throw() {
  std::string_view text;
  if (!read(text)) {
    // EFBIG and a refused file type carry their own detail; others the errno.
    if (not_regular_ || errno_ == EFBIG) throw ReadError(path_, errno_, error_text());
    throw ReadError(path_, errno_);
  }
  return text;
}

}  // namespace schedrig::procfs
