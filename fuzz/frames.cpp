#include "fuzz/frames.h"

#include <stdexcept>

namespace schedrig::fuzz {

std::vector<std::string_view> split_frames(std::string_view input) {
  std::vector<std::string_view> out;
  while (input.size() >= 2) {
    const std::size_t length = static_cast<unsigned char>(input[0]) |
                               static_cast<std::size_t>(static_cast<unsigned char>(input[1])) << 8;
    input.remove_prefix(2);
    const std::size_t take = std::min(length, input.size());
    out.push_back(input.substr(0, take));
    input.remove_prefix(take);
  }
  return out;
}

std::string join_frames(const std::vector<std::string>& messages) {
  std::string out;
  for (const std::string& m : messages) {
    if (m.size() > kMaxFrameBytes) throw std::length_error("fuzz frame over 65535 bytes");
    out.push_back(static_cast<char>(m.size() & 0xFF));
    out.push_back(static_cast<char>(m.size() >> 8));
    out += m;
  }
  return out;
}

}  // namespace schedrig::fuzz
