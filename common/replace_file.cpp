#include "common/replace_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

#include "common/unique_fd.h"

namespace schedrig {

[[noreturn]] static void fail(const std::string& what) {
  throw std::system_error(errno, std::generic_category(), what);
}

// Fails naming `what` after removing the half-made `tmp` (errno kept).
[[noreturn]] static void fail_removing(int dirfd, const std::string& tmp, const std::string& what) {
  const int saved = errno;
  ::unlinkat(dirfd, tmp.c_str(), 0);
  errno = saved;
  fail(what);
}

void replace_file_at(int dirfd, const std::string& name, const std::string& text) {
  const std::string tmp = name + ".new";
  if (::unlinkat(dirfd, tmp.c_str(), 0) != 0 && errno != ENOENT) fail(tmp);
  UniqueFd fd(
      ::openat(dirfd, tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
  if (fd.get() < 0) fail(tmp);
  std::size_t put = 0;
  while (put < text.size()) {
    const ssize_t n = ::write(fd.get(), text.data() + put, text.size() - put);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail_removing(dirfd, tmp, tmp);
    put += static_cast<std::size_t>(n);
  }
  if (::close(fd.release()) != 0) fail_removing(dirfd, tmp, tmp);
  if (::renameat(dirfd, tmp.c_str(), dirfd, name.c_str()) != 0) fail_removing(dirfd, tmp, name);
}

}  // namespace schedrig
