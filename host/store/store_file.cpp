#include "host/store/store_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "host/store/store_error.h"

namespace schedrig::store {
namespace {

[[noreturn]] void refuse(const std::string& path, const std::string& why) {
  throw StoreError(StoreError::Reason::kCannotOpen,
                   fmt::format("store {}: cannot open: {}", path, why));
}

}  // namespace

void create_private_file(const std::string& path) {
  if (path.empty() || path == ":memory:") return;
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd >= 0) {
    // The umask may have taken bits off 0600; set it exactly.
    const int rc = ::fchmod(fd, 0600);
    const int saved = errno;
    ::close(fd);
    if (rc != 0) refuse(path, std::strerror(saved));
    return;
  }
  if (errno != EEXIST) refuse(path, std::strerror(errno));
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {
    refuse(path, "it is a symbolic link; name the file itself");
  }
}

}  // namespace schedrig::store
