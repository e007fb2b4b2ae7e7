#include "agent/spool/segment_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "agent/spool/spool_error.h"

namespace schedrig::spool {
namespace {

// SpoolNoSpace for a full disk, else SpoolError: "spool: WHAT: reason".
[[noreturn]] void fail_write(const std::string& what, int err) {
  const std::string message = fmt::format("spool: {}: {}", what, std::strerror(err));
  if (err == ENOSPC || err == EDQUOT) throw SpoolNoSpace(ErrorKind::kFailed, message);
  throw SpoolError(ErrorKind::kFailed, message);
}

}  // namespace

SegmentWriter::SegmentWriter(int dirfd, const std::string& dir, std::string name,
                             const SegmentHeader& header, std::string_view first_bytes)
    : name_(std::move(name)) {
  const std::string start = encode_segment_header(header) + std::string(first_bytes);
  fd_ = open_in(dirfd, name_, O_WRONLY | O_CREAT | O_EXCL);
  if (fd_.get() < 0) fail_write(fmt::format("cannot create {}/{}", dir, name_), errno);
  try {
    if (const int err = write_all_at(fd_.get(), start, 0); err != 0)
      fail_write(fmt::format("cannot write {}/{}", dir, name_), err);
    sync_data(fd_.get(), name_);
    sync_dir(dirfd, dir);
  } catch (...) {
    ::unlinkat(dirfd, name_.c_str(), 0);
    throw;
  }
  size_ = start.size();
}

int SegmentWriter::append(std::string_view bytes) {
  if (const int err = write_all_at(fd_.get(), bytes, size_); err != 0) {
    (void)!::ftruncate(fd_.get(), static_cast<off_t>(size_));
    return err;
  }
  size_ += bytes.size();
  dirty_ = true;
  return 0;
}

bool SegmentWriter::sync() {
  if (!dirty_) return false;
  sync_data(fd_.get(), name_);
  dirty_ = false;
  return true;
}

}  // namespace schedrig::spool
