// One /proc file kept open and re-read from offset 0 with pread(2) into a
// reused buffer (perfetto's /proc probes do the same): no open/close per
// sample, and the buffer grows until the whole file fits in one read, so a
// 160-PU /proc/stat (> 4 KiB) is still read in a single consistent pass.
#pragma once

#include <string>
#include <string_view>

namespace schedrig::sampler {

class ProcFile {
 public:
  ProcFile() = default;
  explicit ProcFile(std::string path);  // opens; check ok()/error()
  ~ProcFile();
  ProcFile(ProcFile&& other) noexcept;
  ProcFile& operator=(ProcFile&& other) noexcept;
  ProcFile(const ProcFile&) = delete;
  ProcFile& operator=(const ProcFile&) = delete;

  bool ok() const { return fd_ >= 0; }
  int error() const { return errno_; }  // errno of the last failed open/read, else 0
  const std::string& path() const { return path_; }

  // The whole file's current text in `text`; false with error() set
  // when the read fails (e.g. ESRCH for a thread that exited). The view is
  // valid until the next read.
  bool read(std::string_view& text);

 private:
  void close();
  std::string path_;
  int fd_ = -1;
  int errno_ = 0;
  std::string buf_;
};

// Reads a whole file once (open, read, close); false with errno in `err`.
bool read_whole_file(const std::string& path, std::string& out, int& err);

}  // namespace schedrig::sampler
