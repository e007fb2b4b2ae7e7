// Offline envelope files (`schedrig-agent run --out F`, `schedrig import F`),
// docs/architecture.md "Wire protocol": the 8-byte magic "SCHEDRIG", a format version
// byte, then each envelope as a base-128 varint length and its bytes.
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <ostream>
#include <string>

namespace schedrig {

inline constexpr char kOfflineMagic[8] = {'S', 'C', 'H', 'E', 'D', 'R', 'I', 'G'};
inline constexpr std::uint8_t kOfflineFormatVersion = 1;

// Appends `v` as a protobuf-style varint (7 bits a byte, low first).
void write_varint(std::ostream& out, std::uint64_t v);

// Reads a varint. Returns nullopt at a clean end of stream; throws
// std::runtime_error on a truncated or over-long (> 10 bytes) varint.
std::optional<std::uint64_t> read_varint(std::istream& in);

// Writes the magic and format version.
void write_offline_header(std::ostream& out);

// Checks the magic and version; throws std::runtime_error naming what is wrong.
void read_offline_header(std::istream& in);

// Writes one length-prefixed record.
void write_offline_record(std::ostream& out, const std::string& bytes);

// Reads one record; nullopt at a clean end. Throws std::runtime_error on a
// truncated record or one over kMaxEnvelopeBytes.
std::optional<std::string> read_offline_record(std::istream& in);

}  // namespace schedrig
