// One checked record (docs/architecture.md "Wire protocol": offline files and
// the agent's spool): a 4-byte little-endian payload length, a 4-byte
// little-endian CRC-32C of those 4 length bytes followed by the payload, then
// the payload. The CRC covers the length too, so a flipped length bit is a
// bad record, not a misread one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <string_view>

namespace schedrig::record {

inline constexpr std::size_t kRecordHeaderBytes = 8;

// Appends `payload` framed as above to `out`. Throws std::length_error for a
// payload of 2^32 bytes or more.
void append_record(std::string& out, std::string_view payload);

// `payload` framed as above.
std::string framed_record(std::string_view payload);

// What reading one record found.
enum class RecordStatus {
  kOk,         // `payload` holds the record
  kEnd,        // a clean end: no byte left
  kTruncated,  // the stream ended inside the header or the payload
  kTooLarge,   // the length is over the reader's max_bytes
  kBadCrc,     // the CRC does not match: the record is damaged
};

struct RecordRead {
  RecordStatus status = RecordStatus::kEnd;
  std::string payload;
  std::uint32_t length = 0;  // the length the header claims (kTruncated, kTooLarge, kBadCrc)
};

// Reads the record at the stream's position; on kOk the stream is at the
// next record. `max_bytes` bounds the payload (a damaged length must not
// allocate gigabytes).
RecordRead read_record(std::istream& in, std::size_t max_bytes);

// "ok", "end", "truncated", "too large", "bad CRC".
const char* status_name(RecordStatus status);

}  // namespace schedrig::record
