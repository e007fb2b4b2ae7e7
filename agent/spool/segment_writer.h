// The segment the spool appends to (docs/architecture.md "Spool"): created
// O_EXCL|O_NOFOLLOW, mode 0600, its header synced with the directory entry,
// then records written with pwrite(2) at the end. A failed write is cut back
// off the file, so a full disk never leaves a torn record behind.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "agent/spool/segment_format.h"
#include "agent/spool/spool_fs.h"

namespace schedrig::spool {

class SegmentWriter {
 public:
  // Creates `name` in `dirfd` (`dir` names it in messages), writes `header`
  // (and `first_bytes`, e.g. the instance's Hello record, when not empty)
  // and syncs the file and the directory. Throws SpoolError (SpoolNoSpace
  // when the disk is full), removing what it made.
  SegmentWriter(int dirfd, const std::string& dir, std::string name, const SegmentHeader& header,
                std::string_view first_bytes);

  // Appends `bytes` (whole records). Returns 0, or the errno of a failed
  // write (ENOSPC, EDQUOT, EIO...) after cutting the file back.
  int append(std::string_view bytes);

  // fdatasync(2) when something was appended since the last sync; true when
  // it synced. Throws SpoolError.
  bool sync();
  bool dirty() const { return dirty_; }

  std::uint64_t size() const { return size_; }
  const std::string& name() const { return name_; }

 private:
  Fd fd_;
  std::string name_;
  std::uint64_t size_ = 0;
  bool dirty_ = false;
};

}  // namespace schedrig::spool
