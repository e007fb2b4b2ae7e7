#include "agent/tools/tool_binary.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "agent/tools/tool_error.h"
#include "common/printable.h"

namespace schedrig::tools {
namespace {

constexpr const char* kFix = "install it root-owned, mode 0755, and name it in the agent config";

// "binary" for a program, "file" for what a program reads (a kernel image).
thread_local const char* noun = "binary";

[[noreturn]] void refuse(const std::string& tool, const std::string& path,
                         const std::string& reason) {
  throw ToolArgsError(fmt::format("{}: {} {}: {}", tool, noun, printable(path), reason));
}

// Why `st` (of `what`, "the file" or "directory D") may not be trusted, or "".
std::string untrusted(const struct stat& st, const std::string& what) {
  if (st.st_uid != 0) return fmt::format("{} is owned by uid {}, not root", what, st.st_uid);
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    return fmt::format("{} is writable by {} (mode {:04o})", what,
                       (st.st_mode & S_IWOTH) ? "others" : "its group", st.st_mode & 07777);
  }
  return "";
}

void check_directories(const std::string& tool, const std::string& path,
                       const std::filesystem::path& resolved) {
  std::filesystem::path dir = resolved.parent_path();
  while (true) {
    struct stat st {};
    if (::lstat(dir.c_str(), &st) != 0) {
      refuse(tool, path, fmt::format("cannot stat {}: {}", dir.string(), std::strerror(errno)));
    }
    if (const std::string why = untrusted(st, "directory " + dir.string()); !why.empty()) {
      refuse(tool, path, fmt::format("{}; {}", why, kFix));
    }
    if (dir == dir.root_path()) return;
    dir = dir.parent_path();
  }
}

}  // namespace

std::string trusted_tool_binary(const std::string& tool, const std::string& path) {
  return trusted_root_file(tool, path, true);
}

std::string trusted_root_file(const std::string& tool, const std::string& path, bool executable) {
  noun = executable ? "binary" : "file";
  if (path.empty() || path[0] != '/') refuse(tool, path, "not an absolute path");
  char buf[PATH_MAX];
  if (!::realpath(path.c_str(), buf)) {
    refuse(tool, path,
           fmt::format("{} ({})", std::strerror(errno),
                       errno == ENOENT ? "is it installed? docs/workloads.md \"External tools\""
                                       : "check the agent config's tools: map"));
  }
  const std::string resolved = buf;
  struct stat st {};
  if (::stat(resolved.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    refuse(tool, path, "not a regular file");
  }
  if (executable && (st.st_mode & S_IXUSR) == 0) refuse(tool, path, "not executable");
  if (const std::string why = untrusted(st, "the file"); !why.empty()) {
    refuse(tool, path, fmt::format("{}; {}", why, kFix));
  }
  check_directories(tool, path, resolved);
  return resolved;
}

}  // namespace schedrig::tools
