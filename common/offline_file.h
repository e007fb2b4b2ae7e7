// Offline envelope files (`schedrig-agent run --out F`, `schedrig import F`),
// docs/architecture.md "Wire protocol": the 8-byte magic "SCHEDRIG", a format
// version byte, then the envelopes. Version 2 (written) frames each envelope
// as a checked record (common/record/record_frame.h: length, CRC-32C,
// payload); version 1 (still read) as a base-128 varint length and its bytes,
// with no checksum.
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>

namespace schedrig {

inline constexpr char kOfflineMagic[8] = {'S', 'C', 'H', 'E', 'D', 'R', 'I', 'G'};
inline constexpr std::uint8_t kOfflineFormatVersion = 2;  // checked records; what is written
inline constexpr std::uint8_t kOfflineVarintVersion = 1;  // varint lengths, no checksum
inline constexpr std::size_t kOfflineHeaderBytes = sizeof kOfflineMagic + 1;

// Appends `v` as a protobuf-style varint (7 bits a byte, low first).
void write_varint(std::ostream& out, std::uint64_t v);

// Reads a varint. Returns nullopt at a clean end of stream; throws
// std::runtime_error on a truncated or over-long (> 10 bytes) varint.
std::optional<std::uint64_t> read_varint(std::istream& in);

// The magic and the format version byte.
std::string offline_header(std::uint8_t version = kOfflineFormatVersion);

// Writes offline_header(version).
void write_offline_header(std::ostream& out, std::uint8_t version = kOfflineFormatVersion);

// Checks the magic and version; returns the version (1 or 2). Throws
// std::runtime_error naming what is wrong.
std::uint8_t read_offline_header(std::istream& in);

// One envelope's bytes framed as a version 2 record.
std::string offline_record(std::string_view bytes);

// Writes offline_record(bytes).
void write_offline_record(std::ostream& out, std::string_view bytes);

// One record as read: the envelope's bytes and how many bytes of the file
// the record took (its frame included).
struct OfflineRecord {
  std::string payload;
  std::uint64_t file_bytes = 0;
};

// Reads one record of a `version` file; nullopt at a clean end (no byte
// left). Throws std::runtime_error saying why the record is bad: truncated,
// over kMaxEnvelopeBytes, a bad CRC (version 2), a bad varint (version 1).
std::optional<OfflineRecord> read_offline_record(std::istream& in, std::uint8_t version);

// A bad offline file: the header (record 0) or record `record` (from 1)
// starting at byte `offset` of the file. what() is "header: WHY" or
// "record N at byte OFFSET: WHY".
class OfflineFileError : public std::runtime_error {
 public:
  OfflineFileError(std::size_t record, std::uint64_t offset, const std::string& why);
  std::size_t record() const { return record_; }
  std::uint64_t offset() const { return offset_; }

 private:
  std::size_t record_;
  std::uint64_t offset_;
};

// Reads a whole offline file record by record, knowing where each starts.
class OfflineReader {
 public:
  // Reads and checks the header. Throws OfflineFileError (record 0).
  explicit OfflineReader(std::istream& in);

  // The next envelope's bytes; nullopt at a clean end. Throws
  // OfflineFileError naming the record and its offset; after that the
  // reader must not be used.
  std::optional<std::string> next();

  // The format version the header gave (1 or 2).
  std::uint8_t version() const { return version_; }
  // Whether its records carry a CRC (version 2).
  bool checksummed() const { return version_ >= kOfflineFormatVersion; }
  // The 1-based index and byte offset of the record next() last returned
  // (or refused); 0 and the header size before the first.
  std::size_t index() const { return index_; }
  std::uint64_t offset() const { return offset_; }

 private:
  std::istream& in_;
  std::uint8_t version_ = 0;
  std::size_t index_ = 0;
  std::uint64_t offset_ = kOfflineHeaderBytes;
  std::uint64_t next_offset_ = kOfflineHeaderBytes;
};

}  // namespace schedrig
