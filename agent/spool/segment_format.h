// Spool segment files (docs/architecture.md "Spool"). A segment is named
// seg-<number, 20 digits>-<instance id>-<first seq, 20 digits>.spool, where
// the number rises across the whole spool (and across agent restarts), so it
// orders instances oldest first. It holds the 8-byte magic "SCHEDSPL", a
// version byte (1), one checked record (common/record/record_frame.h) whose
// payload is the header below, then checked records holding one serialized
// v1::Envelope each, all of the header's instance, seq rising (a segment
// after an instance's first may open with a copy of that instance's Hello).
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <string>

namespace schedrig::spool {

inline constexpr char kSegmentMagic[8] = {'S', 'C', 'H', 'E', 'D', 'S', 'P', 'L'};
inline constexpr std::uint8_t kSegmentVersion = 1;
// Longest agent_id a header holds, bytes.
inline constexpr std::size_t kMaxAgentIdBytes = 1024;

// The header record's payload: le64 number, then instance_id and agent_id,
// each after a le16 length.
struct SegmentHeader {
  std::uint64_t number = 0;
  std::string instance_id;
  std::string agent_id;
};

// True for an instance id a file name can carry: 1 to 64 of [A-Za-z0-9_-]
// (a UUID is one).
bool valid_instance_id(const std::string& id);

// "seg-00000000000000000007-<instance>-00000000000000000042.spool".
std::string segment_file_name(std::uint64_t number, const std::string& instance_id,
                              std::uint64_t first_seq);

// True for a name of the shape segment_file_name makes ("seg-*.spool").
bool is_segment_file_name(const std::string& name);

// Magic, version and the header record. Throws std::invalid_argument for an
// agent_id over kMaxAgentIdBytes or an instance id valid_instance_id refuses.
std::string encode_segment_header(const SegmentHeader& header);

// What reading a segment's header found.
struct HeaderRead {
  std::optional<SegmentHeader> header;  // set when it is good
  bool torn = false;                    // the file ends inside it (a crash while creating the file)
  std::string error;        // why it is not good: "bad magic", "version 3", "header record bad CRC"
  std::uint64_t bytes = 0;  // the header's length in the file, when good
};

// Reads the header at the stream's start; on success the stream is at the
// first envelope record.
HeaderRead read_segment_header(std::istream& in);

}  // namespace schedrig::spool
