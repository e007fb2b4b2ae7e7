// The spool's picture of its directory, kept in memory (internal to
// schedrig_spool; docs/architecture.md "Spool"): the segments in number
// order and what each instance has in them.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "agent/spool/spool_types.h"
#include "schedrig/v1/envelope.pb.h"

namespace schedrig::spool {

struct SegmentInfo {
  std::string name;  // file name in the spool directory
  std::uint64_t number = 0;
  std::string instance_id;
  std::uint64_t last_seq = 0;    // highest seq it holds, 0 when none
  std::uint64_t good_bytes = 0;  // the checked prefix: replay reads no further
  std::uint64_t file_bytes = 0;  // its size on disk, counted against max_bytes
};

struct InstanceState {
  std::string agent_id;
  std::optional<schedrig::v1::Envelope> hello;  // its first Hello
  std::uint64_t last_seq = 0;                   // highest seq spooled
  std::uint64_t acked = 0;                      // highest seq the host acked
  bool live = false;  // appended to by this process: kept even with no segment left
};

struct SpoolContents {
  std::vector<SegmentInfo> segments;  // by number
  std::map<std::string, InstanceState> instances;
  std::vector<RecoveryNote> notes;
  std::uint64_t next_number = 1;
};

}  // namespace schedrig::spool
