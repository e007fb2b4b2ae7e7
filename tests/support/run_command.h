// Test support: runs a shell command and captures its output and exit code.
#pragma once

#include <string>

namespace schedrig::testing {

struct CommandResult {
  int exit_code = -1;  // the command's exit status; 128+N when killed by signal N
  std::string output;  // stdout and stderr, interleaved
};

// Runs `command` through /bin/sh with stderr merged into stdout.
CommandResult run_command(const std::string& command);

// Path of a built binary: SCHEDRIG_BIN_DIR "/" name.
std::string bin(const std::string& name);

// A fresh temporary directory, removed recursively on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace schedrig::testing
