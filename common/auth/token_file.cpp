// read_token_file and read_token_fd (common/auth/token.h).
#include <fcntl.h>

#include <fmt/format.h>

#include "common/auth/private_file.h"
#include "common/auth/token.h"
#include "common/error.h"

namespace schedrig::auth {
namespace {

// The first line of `text` without surrounding whitespace; refused when empty.
std::string first_line_token(const std::string& text, const std::string& label) {
  constexpr const char* kSpace = " \t\r\v\f";
  const std::string line = text.substr(0, text.find('\n'));
  const std::size_t begin = line.find_first_not_of(kSpace);
  if (begin == std::string::npos) {
    throw Error(ErrorKind::kUsage, fmt::format("{}: empty (no token on its first line)", label));
  }
  const std::size_t end = line.find_last_not_of(kSpace);
  return line.substr(begin, end - begin + 1);
}

}  // namespace

std::string read_token_file(const std::string& path) {
  const std::string label = "token file " + path;
  const detail::UniqueFd fd = detail::open_private_file(path, O_RDONLY, label);
  return first_line_token(detail::read_bounded(fd.get(), kMaxTokenFileBytes, label), label);
}

std::string read_token_fd(int fd) {
  const std::string label = fmt::format("token fd {}", fd);
  return first_line_token(detail::read_bounded(fd, kMaxTokenFileBytes, label), label);
}

}  // namespace schedrig::auth
