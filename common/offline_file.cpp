#include "common/offline_file.h"

#include <fmt/format.h>

#include "common/envelope_codec.h"
#include "common/record/record_frame.h"

namespace schedrig {
namespace {

// A varint and how many bytes it took; nullopt at a clean end.
struct Varint {
  std::uint64_t value = 0;
  std::uint64_t bytes = 0;
};

std::optional<Varint> read_counted_varint(std::istream& in) {
  Varint v;
  for (int i = 0; i < 10; ++i) {
    const int c = in.get();
    if (c == std::char_traits<char>::eof()) {
      if (i == 0) return std::nullopt;
      throw std::runtime_error("truncated varint");
    }
    v.value |= static_cast<std::uint64_t>(c & 0x7F) << (7 * i);
    v.bytes = static_cast<std::uint64_t>(i) + 1;
    if ((c & 0x80) == 0) return v;
  }
  throw std::runtime_error("varint longer than 10 bytes");
}

std::string over_limit(std::uint64_t length) {
  return fmt::format("record of {} bytes is over the {}-byte limit", length, kMaxEnvelopeBytes);
}

// Version 1: a varint length, then that many bytes.
std::optional<OfflineRecord> read_varint_record(std::istream& in) {
  auto len = read_counted_varint(in);
  if (!len) return std::nullopt;
  if (len->value > kMaxEnvelopeBytes) throw std::runtime_error(over_limit(len->value));
  OfflineRecord r{std::string(len->value, '\0'), len->bytes + len->value};
  in.read(r.payload.data(), static_cast<std::streamsize>(len->value));
  if (static_cast<std::uint64_t>(in.gcount()) != len->value) {
    throw std::runtime_error(
        fmt::format("truncated record ({} of {} bytes)", in.gcount(), len->value));
  }
  return r;
}

// Version 2: a checked record (common/record/record_frame.h).
std::optional<OfflineRecord> read_checked_record(std::istream& in) {
  record::RecordRead r = record::read_record(in, kMaxEnvelopeBytes);
  switch (r.status) {
    case record::RecordStatus::kOk:
      return OfflineRecord{std::move(r.payload), record::kRecordHeaderBytes + r.length};
    case record::RecordStatus::kEnd:
      return std::nullopt;
    case record::RecordStatus::kTruncated:
      throw std::runtime_error("truncated record (the file ends inside it)");
    case record::RecordStatus::kTooLarge:
      throw std::runtime_error(over_limit(r.length));
    case record::RecordStatus::kBadCrc:
      throw std::runtime_error(
          fmt::format("bad CRC-32C over the record's {} bytes (it is damaged)", r.length));
  }
  throw std::logic_error("read_checked_record: unknown status");
}

}  // namespace

void write_varint(std::ostream& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.put(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out.put(static_cast<char>(v));
}

std::optional<std::uint64_t> read_varint(std::istream& in) {
  auto v = read_counted_varint(in);
  if (!v) return std::nullopt;
  return v->value;
}

std::string offline_header(std::uint8_t version) {
  std::string out(kOfflineMagic, sizeof kOfflineMagic);
  out.push_back(static_cast<char>(version));
  return out;
}

void write_offline_header(std::ostream& out, std::uint8_t version) {
  out << offline_header(version);
}

std::uint8_t read_offline_header(std::istream& in) {
  char magic[sizeof kOfflineMagic] = {};
  in.read(magic, sizeof magic);
  if (in.gcount() != sizeof magic || std::string_view(magic, sizeof magic) !=
                                         std::string_view(kOfflineMagic, sizeof kOfflineMagic)) {
    throw std::runtime_error("missing SCHEDRIG magic (not a schedrig file)");
  }
  const int version = in.get();
  if (version != kOfflineVarintVersion && version != kOfflineFormatVersion) {
    throw std::runtime_error(fmt::format("format version {} is not supported (want {} or {})",
                                         version, kOfflineVarintVersion, kOfflineFormatVersion));
  }
  return static_cast<std::uint8_t>(version);
}

std::string offline_record(std::string_view bytes) { return record::framed_record(bytes); }

void write_offline_record(std::ostream& out, std::string_view bytes) {
  out << offline_record(bytes);
}

std::optional<OfflineRecord> read_offline_record(std::istream& in, std::uint8_t version) {
  return version == kOfflineVarintVersion ? read_varint_record(in) : read_checked_record(in);
}

OfflineFileError::OfflineFileError(std::size_t record, std::uint64_t offset, const std::string& why)
    : std::runtime_error(record == 0
                             ? "header: " + why
                             : fmt::format("record {} at byte {}: {}", record, offset, why)),
      record_(record),
      offset_(offset) {}

OfflineReader::OfflineReader(std::istream& in) : in_(in) {
  try {
    version_ = read_offline_header(in_);
  } catch (const std::runtime_error& e) {
    throw OfflineFileError(0, 0, e.what());
  }
}

std::optional<std::string> OfflineReader::next() {
  std::optional<OfflineRecord> r;
  try {
    r = read_offline_record(in_, version_);
  } catch (const std::runtime_error& e) {
    index_ += 1;
    offset_ = next_offset_;
    throw OfflineFileError(index_, offset_, e.what());
  }
  if (!r) return std::nullopt;
  index_ += 1;
  offset_ = next_offset_;
  next_offset_ += r->file_bytes;
  return std::move(r->payload);
}

}  // namespace schedrig
