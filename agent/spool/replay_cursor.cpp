#include "agent/spool/replay_cursor.h"

#include <spdlog/spdlog.h>

#include "agent/spool/segment_reader.h"

namespace schedrig::spool {

using Kind = SegmentRecord::Kind;

ReplayCursor::ReplayCursor(int dirfd, std::string dir, std::vector<Part> parts,
                           std::uint64_t acked_seq)
    : dirfd_(dirfd), dir_(std::move(dir)), parts_(std::move(parts)), acked_(acked_seq) {}

ReplayCursor::~ReplayCursor() = default;
ReplayCursor::ReplayCursor(ReplayCursor&&) noexcept = default;
ReplayCursor& ReplayCursor::operator=(ReplayCursor&&) noexcept = default;

bool ReplayCursor::open_next_part() {
  reader_.reset();
  while (next_part_ < parts_.size()) {
    const Part& part = parts_[next_part_++];
    reader_ = SegmentReader::open(dirfd_, part.name, part.limit);
    if (reader_ && reader_->header().header) return true;
    if (reader_)
      spdlog::warn("spool: {}/{}: {}; not replayed", dir_, part.name, reader_->header().error);
  }
  reader_.reset();
  return false;
}

std::optional<schedrig::v1::Envelope> ReplayCursor::next() {
  while (reader_ || open_next_part()) {
    SegmentRecord r = reader_->next();
    if (r.kind == Kind::kEnvelope) {
      if (!r.envelope.has_hello() && r.envelope.seq() > acked_) return std::move(r.envelope);
      continue;
    }
    if (r.kind != Kind::kEnd)
      spdlog::warn("spool: {}/{} at byte {}: {}; the rest of it is not replayed", dir_,
                   reader_->name(), r.offset, r.why);
    reader_.reset();
  }
  return std::nullopt;
}

}  // namespace schedrig::spool
