// Reads one spool segment (segment_format.h) record by record, for recovery
// and replay (docs/architecture.md "Spool"). Every record is checked (length,
// CRC-32C, a decodable Envelope of the header's instance); the reader says
// where the good bytes end and why it stopped.
#pragma once

#include <cstdint>
#include <istream>
#include <memory>
#include <optional>
#include <string>

#include "agent/spool/fd_streambuf.h"
#include "agent/spool/segment_format.h"
#include "agent/spool/spool_fs.h"
#include "schedrig/v1/envelope.pb.h"

namespace schedrig::spool {

// One step of a segment.
struct SegmentRecord {
  enum class Kind {
    kEnvelope,  // `envelope` is the next record
    kEnd,       // the segment ends cleanly here
    kTorn,      // the last record is cut short (a crash mid-write): `why`
    kDamaged,   // a bad CRC, an impossible length, an undecodable or foreign envelope: `why`
  };
  Kind kind = Kind::kEnd;
  schedrig::v1::Envelope envelope;
  std::uint64_t offset = 0;  // the record's first byte in the file
  std::string why;
};

class SegmentReader {
 public:
  // Opens `name` in `dirfd` (open_trusted: a regular file of this user or
  // root, never through a link, never blocking) to read its first `limit`
  // bytes. nullptr when the file is gone (deleted once acked); throws
  // SpoolUnsafeFile when it is not such a file, SpoolError on any other
  // failure to open it.
  static std::unique_ptr<SegmentReader> open(int dirfd, const std::string& name,
                                             std::uint64_t limit);

  // The header, read once first (segment_format.h).
  const HeaderRead& header() const { return header_; }

  // The next record. Only after a good header. Throws SpoolError on a read
  // error of the disk (never reported as a torn record).
  SegmentRecord next();

  // End of the last good record (or of the header): bytes worth keeping.
  std::uint64_t good_bytes() const { return good_; }

  const std::string& name() const { return name_; }

 private:
  SegmentReader(Fd fd, std::string name, std::uint64_t limit);
  SegmentRecord damaged(std::string why) const;

  Fd fd_;
  std::string name_;
  FdStreamBuf buf_;
  std::istream in_;
  HeaderRead header_;
  std::uint64_t good_ = 0;
};

}  // namespace schedrig::spool
