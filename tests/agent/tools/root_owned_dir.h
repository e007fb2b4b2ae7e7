// A directory the external-tool tests may put binaries in that
// trusted_tool_binary (agent/tools/tool_binary.h) accepts: made 0755 under
// /run, whose parents are root-owned and not group- or other-writable.
// Needs root; `skip_reason()` says why it could not be made.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace schedrig::tools::testing {

class RootOwnedDir {
 public:
  explicit RootOwnedDir(const std::string& name) {
    struct stat run {};
    if (::geteuid() != 0) {
      skip_ = "needs root to make root-owned binaries";
    } else if (::stat("/run", &run) != 0 || run.st_uid != 0 || (run.st_mode & 022) != 0) {
      skip_ = "/run is not a root-owned 0755 directory here";
    } else {
      path_ = std::filesystem::path("/run") / (name + "-" + std::to_string(::getpid()));
      std::filesystem::create_directory(path_);
      ::chmod(path_.c_str(), 0755);
    }
  }
  ~RootOwnedDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  RootOwnedDir(const RootOwnedDir&) = delete;
  RootOwnedDir& operator=(const RootOwnedDir&) = delete;

  const std::string& skip_reason() const { return skip_; }
  const std::filesystem::path& path() const { return path_; }

  // Writes an executable (0755) `name` holding `text`; returns its path.
  std::string write_script(const std::string& name, const std::string& text) const {
    const std::string file = (path_ / name).string();
    std::ofstream(file) << text;
    ::chmod(file.c_str(), 0755);
    return file;
  }

 private:
  std::string skip_;
  std::filesystem::path path_;
};

}  // namespace schedrig::tools::testing
