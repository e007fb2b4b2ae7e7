// Replaying one instance's unacked envelopes (docs/architecture.md "Spool"):
// its segments as they were when the cursor was made, read lazily one record
// at a time in seq order, every record checked again. Hellos are left out
// (PendingInstance::hello is sent first instead), and so is every envelope
// the host had acked when the cursor was made. A segment deleted meanwhile
// (acked) is skipped; damage found now (the disk changed since recovery)
// ends that segment with a warning.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "schedrig/v1/envelope.pb.h"

namespace schedrig::spool {

class SegmentReader;

class ReplayCursor {
 public:
  struct Part {
    std::string name;     // segment file
    std::uint64_t limit;  // bytes to read: the checked prefix, or what was written
  };

  // Reads `parts` in order from `dirfd` (`dir` for messages), which must
  // stay open while the cursor is used (it belongs to the Spool).
  ReplayCursor(int dirfd, std::string dir, std::vector<Part> parts, std::uint64_t acked_seq);
  ~ReplayCursor();
  ReplayCursor(ReplayCursor&&) noexcept;
  ReplayCursor& operator=(ReplayCursor&&) noexcept;

  // The next envelope to send, nullopt when there is none left. Throws
  // SpoolError on a read error.
  std::optional<schedrig::v1::Envelope> next();

 private:
  bool open_next_part();

  int dirfd_;
  std::string dir_;
  std::vector<Part> parts_;
  std::size_t next_part_ = 0;
  std::uint64_t acked_;
  std::unique_ptr<SegmentReader> reader_;
};

}  // namespace schedrig::spool
