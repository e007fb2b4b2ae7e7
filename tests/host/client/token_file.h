// An operator token file as `schedrig token new` leaves it for a client:
// mode 0600, the token on its first line.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <stdexcept>
#include <string>

namespace schedrig::testing {

inline constexpr const char* kOperatorToken =
    "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0";

// Writes `token` and a newline to `path`, created 0600; returns `path`.
inline std::string write_token_file(const std::string& path,
                                    const std::string& token = kOperatorToken) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) throw std::runtime_error("cannot create " + path);
  const std::string line = token + "\n";
  const bool ok = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size());
  ::close(fd);
  if (!ok) throw std::runtime_error("cannot write " + path);
  return path;
}

}  // namespace schedrig::testing
