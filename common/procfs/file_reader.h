// One kernel file kept open and re-read from offset 0 with pread(2) into a
// reused buffer (perfetto's /proc probes do the same): no open/close per
// sample, and the buffer grows until the whole file fits in one read, so a
// 160-PU /proc/stat (> 4 KiB) is still read in a single consistent pass.
// The file is opened O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK: a
// symlink planted as the file itself is refused (ELOOP), and anything but a
// regular file (as every /proc and /sys file is) is refused at once: a
// directory with EISDIR, a FIFO, socket or device with EINVAL ("not a
// regular file"), so a FIFO in a fake tree cannot block the reader. The text is bounded: a file
// larger than max_bytes fails with EFBIG instead of growing the buffer further.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace schedrig::procfs {

class FileReader {
 public:
  // Enough for /proc/schedstat or /proc/cpuinfo of a many-hundred-PU box.
  static constexpr std::size_t kDefaultMaxBytes = std::size_t{4} << 20;

  FileReader() = default;
  // Opens `path` (no throw); check ok()/error().
  explicit FileReader(const std::filesystem::path& path, std::size_t max_bytes = kDefaultMaxBytes);
  ~FileReader();
  FileReader(FileReader&& other) noexcept;
  FileReader& operator=(FileReader&& other) noexcept;
  FileReader(const FileReader&) = delete;
  FileReader& operator=(const FileReader&) = delete;

  bool ok() const { return fd_ >= 0; }
  int error() const { return errno_; }  // errno of the last failed open/read, else 0
  const std::string& path() const { return path_; }

  // The whole file's current text in `text`; false with error() set when
  // the read fails (e.g. ESRCH for a thread that exited, EFBIG for a file
  // over the bound). The view is valid until the next read.
  bool read(std::string_view& text);

  // Why the last open/read failed, for a message: "not a regular file:
  // Invalid argument (EINVAL)" for a refused FIFO, socket or device, "larger
  // than N bytes" for EFBIG, else errno_text(error()) (read_error.h).
  std::string error_text() const;

  // As read(), but throws ReadError (common/procfs/read_error.h) naming the
  // path and the errno (also when the open failed).
  std::string_view read_or_throw();

 private:
  void close();
  std::string path_;
  std::size_t max_bytes_ = kDefaultMaxBytes;
  int fd_ = -1;
  int errno_ = 0;
  bool not_regular_ = false;  // open refused a FIFO, socket or device
  std::string buf_;
};

}  // namespace schedrig::procfs
