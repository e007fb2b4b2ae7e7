// A file that appears under its name only once it is worth keeping
// (`schedrig-agent run --out F`, docs/architecture.md "Command lines"): it is
// written to a temporary file next to F (".F.RANDOM.tmp", created O_EXCL,
// mode 0600, O_NOFOLLOW | O_CLOEXEC) and renamed over F by commit(), so
// whatever F held stays untouched until then. Not committed, the temporary
// file is removed on destruction.
#pragma once

#include <string>
#include <string_view>

namespace schedrig::agent {

class PendingFile {
 public:
  // Creates the temporary file beside `path`. Throws std::runtime_error
  // naming `path`, the temporary file and errno.
  explicit PendingFile(std::string path);
  ~PendingFile();
  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;

  // Writes all of `bytes` with write(2) (no user-space buffer: what was
  // written survives a crash of the process). Throws std::runtime_error
  // naming the file (the temporary one until commit) and errno.
  void write(std::string_view bytes);

  // fsync(2)s what was written, renames the temporary file over `path` and
  // fsyncs the directory; later writes go to `path`. Once only. Throws
  // std::runtime_error naming both files and errno.
  void commit();

  bool committed() const { return committed_; }
  const std::string& path() const { return path_; }
  const std::string& temp_path() const { return temp_path_; }

 private:
  std::string path_;
  std::string temp_path_;
  int fd_ = -1;
  bool committed_ = false;
};

}  // namespace schedrig::agent
