#include "agent/sampler/proc_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

namespace schedrig::sampler {
namespace {

constexpr std::size_t kInitialBuffer = 4096;

}  // namespace

ProcFile::ProcFile(std::string path) : path_(std::move(path)), buf_(kInitialBuffer, '\0') {
  fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) errno_ = errno;
}

ProcFile::~ProcFile() { close(); }

ProcFile::ProcFile(ProcFile&& other) noexcept
    : path_(std::move(other.path_)),
      fd_(std::exchange(other.fd_, -1)),
      errno_(other.errno_),
      buf_(std::move(other.buf_)) {}

ProcFile& ProcFile::operator=(ProcFile&& other) noexcept {
  if (this != &other) {
    close();
    path_ = std::move(other.path_);
    fd_ = std::exchange(other.fd_, -1);
    errno_ = other.errno_;
    buf_ = std::move(other.buf_);
  }
  return *this;
}

void ProcFile::close() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

bool ProcFile::read(std::string_view& text) {
  if (fd_ < 0) return false;
  if (buf_.empty()) buf_.resize(kInitialBuffer);
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
    buf_.resize(buf_.size() * 2);  // did not fit: grow and read again from 0
  }
}

bool read_whole_file(const std::string& path, std::string& out, int& err) {
  ProcFile f(path);
  std::string_view text;
  if (!f.read(text)) {
    err = f.error();
    return false;
  }
  out.assign(text);
  err = 0;
  return true;
}

}  // namespace schedrig::sampler
