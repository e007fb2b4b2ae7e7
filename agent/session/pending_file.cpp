#include "agent/session/pending_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "common/ids.h"

namespace schedrig::agent {
namespace {

// DIR/.NAME.RANDOM.tmp for DIR/NAME.
std::string temp_path_for(const std::string& path) {
  const std::filesystem::path p(path);
  // fmt, not "." + name: GCC 12 warns falsely (-Wrestrict) on the latter.
  const std::string name =
      fmt::format(".{}.{}.tmp", p.filename().string(), make_uuid_v4().substr(0, 8));
  return (p.parent_path() / name).string();
}

[[noreturn]] void fail(const std::string& what, int err) {
  throw std::runtime_error(fmt::format("{}: {}", what, std::strerror(err)));
}

// fsync(2) of the directory holding `path`, so a rename in it is durable.
void sync_dir_of(const std::string& path) {
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  if (dir.empty()) dir = ".";
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;  // the rename happened; durability is best effort here
  (void)::fsync(fd);
  ::close(fd);
}

}  // namespace

PendingFile::PendingFile(std::string path)
    : path_(std::move(path)), temp_path_(temp_path_for(path_)) {
  std::error_code ec;
  if (std::filesystem::is_directory(path_, ec)) fail("cannot write " + path_, EISDIR);
  fd_ = ::open(temp_path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd_ < 0) fail(fmt::format("cannot write {} (temporary file {})", path_, temp_path_), errno);
}

PendingFile::~PendingFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) ::unlink(temp_path_.c_str());
}

void PendingFile::write(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(fmt::format("cannot write {}", committed_ ? path_ : temp_path_), errno);
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

void PendingFile::commit() {
  if (committed_) throw std::logic_error("PendingFile::commit: already committed");
  if (::fsync(fd_) != 0) fail(fmt::format("cannot sync {}", temp_path_), errno);
  if (::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    fail(fmt::format("cannot rename {} to {}", temp_path_, path_), errno);
  }
  committed_ = true;
  sync_dir_of(path_);
}

}  // namespace schedrig::agent
