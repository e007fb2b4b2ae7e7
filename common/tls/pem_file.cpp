#include "common/tls/pem_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "common/error.h"
#include "common/file_owner.h"

namespace schedrig::tls {
namespace {

// Closes the descriptor on every path out.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

[[noreturn]] void refuse(const char* what, const std::string& path, const std::string& reason) {
  throw Error(ErrorKind::kUsage, fmt::format("{} {}: {}", what, path, reason));
}

void check_opened(const struct stat& st, PemSecrecy secrecy, const char* what,
                  const std::string& path) {
  if (!S_ISREG(st.st_mode)) refuse(what, path, "not a regular file");
  if (static_cast<std::size_t>(st.st_size) > kMaxPemBytes)
    refuse(what, path, fmt::format("larger than {} bytes", kMaxPemBytes));
  if (secrecy == PemSecrecy::kSecret && (st.st_mode & 077) != 0) {
    refuse(what, path,
           fmt::format("group or others may access it (mode {:04o}); chmod 600 it",
                       st.st_mode & 07777));
  }
  if (secrecy == PemSecrecy::kSecret) {
    if (auto owner = untrusted_owner(st.st_uid)) refuse(what, path, *owner);
  }
}

}  // namespace

std::string read_pem_file(const std::string& path, PemSecrecy secrecy, const char* what) {
  if (path.empty()) refuse(what, "''", "no file named");
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)};
  if (f.fd < 0) refuse(what, path, std::strerror(errno));
  struct stat st {};
  if (::fstat(f.fd, &st) != 0) refuse(what, path, std::strerror(errno));
  check_opened(st, secrecy, what, path);
  std::string text;
  char buf[16384];
  for (;;) {
    const ssize_t n = ::read(f.fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) refuse(what, path, std::strerror(errno));
    if (n == 0) break;
    text.append(buf, static_cast<std::size_t>(n));
    if (text.size() > kMaxPemBytes)
      refuse(what, path, fmt::format("larger than {} bytes", kMaxPemBytes));
  }
  return text;
}

}  // namespace schedrig::tls
