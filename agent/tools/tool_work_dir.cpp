#include "agent/tools/tool_work_dir.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "agent/tools/tool_error.h"

namespace schedrig::tools {

ToolWorkDir::ToolWorkDir(const std::string& tool) {
  std::string templ = fmt::format("/tmp/schedrig-{}-XXXXXX", tool);
  if (!::mkdtemp(templ.data())) {
    throw ToolRunError(
        fmt::format("{}: cannot make its working directory: {}", tool, std::strerror(errno)));
  }
  path_ = templ;
}

namespace {

namespace fs = std::filesystem;

// Whether `path` (not followed) is the root of a mount: another file
// system, or a bind mount of the same one (statx(2) STATX_ATTR_MOUNT_ROOT,
// Linux 5.8; the device number tells only the former).
bool mount_root(const fs::path& path, dev_t dev, bool* is_dir) {
  struct statx stx {};
  if (::statx(AT_FDCWD, path.c_str(), AT_SYMLINK_NOFOLLOW, STATX_TYPE, &stx) != 0) return true;
  *is_dir = S_ISDIR(stx.stx_mode);
  if (::makedev(stx.stx_dev_major, stx.stx_dev_minor) != dev) return true;
  return (stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) != 0 &&
         (stx.stx_attributes & STATX_ATTR_MOUNT_ROOT) != 0;
}

// Removes `path` and what it holds, never following a link and never
// entering a mount (a mount a tool made inside its directory stays, with
// the directories above it, rather than be emptied).
void remove_on_device(const fs::path& path, dev_t dev) {
  bool is_dir = false;
  if (mount_root(path, dev, &is_dir)) return;
  if (is_dir) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(path, ec)) remove_on_device(e.path(), dev);
  }
  std::error_code ec;
  fs::remove(path, ec);  // fails, harmlessly, on a directory a mount kept non-empty
}

}  // namespace

ToolWorkDir::~ToolWorkDir() {
  struct stat st {};
  if (::lstat(path_.c_str(), &st) != 0) return;
  std::error_code ec;  // the directory itself is ours: mkdtemp made it
  for (const auto& e : fs::directory_iterator(path_, ec)) remove_on_device(e.path(), st.st_dev);
  fs::remove(path_, ec);
}

}  // namespace schedrig::tools
