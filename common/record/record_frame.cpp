#include "common/record/record_frame.h"

#include <stdexcept>

#include "common/record/crc32c.h"

namespace schedrig::record {
namespace {

void put_le32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xffu));
}

std::uint32_t get_le32(const char* p) {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i)
    v |= static_cast<std::uint32_t>(static_cast<unsigned char>(p[i])) << (8 * i);
  return v;
}

}  // namespace

void append_record(std::string& out, std::string_view payload) {
  if (payload.size() > 0xffffffffu) throw std::length_error("record payload of 4 GiB or more");
  std::string length;
  put_le32(length, static_cast<std::uint32_t>(payload.size()));
  out += length;
  put_le32(out, crc32c(length, payload));
  out.append(payload);
}

std::string framed_record(std::string_view payload) {
  std::string out;
  out.reserve(kRecordHeaderBytes + payload.size());
  append_record(out, payload);
  return out;
}

RecordRead read_record(std::istream& in, std::size_t max_bytes) {
  RecordRead r;
  char header[kRecordHeaderBytes];
  in.read(header, sizeof header);
  const auto got = static_cast<std::size_t>(in.gcount());
  if (got == 0) return r;  // kEnd
  if (got < sizeof header) {
    r.status = RecordStatus::kTruncated;
    return r;
  }
  r.length = get_le32(header);
  if (r.length > max_bytes) {
    r.status = RecordStatus::kTooLarge;
    return r;
  }
  r.payload.resize(r.length);
  in.read(r.payload.data(), static_cast<std::streamsize>(r.length));
  if (static_cast<std::size_t>(in.gcount()) != r.length) {
    r.payload.clear();
    r.status = RecordStatus::kTruncated;
    return r;
  }
  if (crc32c(std::string_view(header, 4), r.payload) != get_le32(header + 4)) {
    r.payload.clear();
    r.status = RecordStatus::kBadCrc;
    return r;
  }
  r.status = RecordStatus::kOk;
  return r;
}

const char* status_name(RecordStatus status) {
  switch (status) {
    case RecordStatus::kOk:
      return "ok";
    case RecordStatus::kEnd:
      return "end";
    case RecordStatus::kTruncated:
      return "truncated";
    case RecordStatus::kTooLarge:
      return "too large";
    case RecordStatus::kBadCrc:
      return "bad CRC";
  }
  return "?";
}

}  // namespace schedrig::record
