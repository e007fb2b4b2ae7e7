#include "common/offline_file.h"

#include <stdexcept>

#include <fmt/format.h>

#include "common/envelope_codec.h"

namespace schedrig {

void write_varint(std::ostream& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.put(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out.put(static_cast<char>(v));
}

std::optional<std::uint64_t> read_varint(std::istream& in) {
  std::uint64_t v = 0;
  for (int i = 0; i < 10; ++i) {
    int c = in.get();
    if (c == std::char_traits<char>::eof()) {
      if (i == 0) return std::nullopt;
      throw std::runtime_error("offline file: truncated varint");
    }
    v |= static_cast<std::uint64_t>(c & 0x7F) << (7 * i);
    if ((c & 0x80) == 0) return v;
  }
  throw std::runtime_error("offline file: varint longer than 10 bytes");
}

void write_offline_header(std::ostream& out) {
  out.write(kOfflineMagic, sizeof kOfflineMagic);
  out.put(static_cast<char>(kOfflineFormatVersion));
}

void read_offline_header(std::istream& in) {
  char magic[sizeof kOfflineMagic] = {};
  in.read(magic, sizeof magic);
  if (in.gcount() != sizeof magic || std::string_view(magic, sizeof magic) !=
                                         std::string_view(kOfflineMagic, sizeof kOfflineMagic)) {
    throw std::runtime_error("offline file: missing SCHEDRIG magic (not a schedrig file)");
  }
  int version = in.get();
  if (version != kOfflineFormatVersion) {
    throw std::runtime_error(
        fmt::format("offline file: format version {} is not supported (want {})", version,
                    kOfflineFormatVersion));
  }
}

void write_offline_record(std::ostream& out, const std::string& bytes) {
  write_varint(out, bytes.size());
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::optional<std::string> read_offline_record(std::istream& in) {
  auto len = read_varint(in);
  if (!len) return std::nullopt;
  if (*len > kMaxEnvelopeBytes) {
    throw std::runtime_error(fmt::format(
        "offline file: record of {} bytes is over the {}-byte limit", *len, kMaxEnvelopeBytes));
  }
  std::string bytes(*len, '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(*len));
  if (static_cast<std::uint64_t>(in.gcount()) != *len) {
    throw std::runtime_error(
        fmt::format("offline file: truncated record ({} of {} bytes)", in.gcount(), *len));
  }
  return bytes;
}

}  // namespace schedrig
