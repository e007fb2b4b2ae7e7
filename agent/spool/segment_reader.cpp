#include "agent/spool/segment_reader.h"

#include <fcntl.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "agent/spool/spool_error.h"
#include "common/envelope_codec.h"
#include "common/record/record_frame.h"

namespace schedrig::spool {

using record::RecordStatus;

std::unique_ptr<SegmentReader> SegmentReader::open(int dirfd, const std::string& name,
                                                   std::uint64_t limit) {
  TrustedOpen f = open_trusted(dirfd, name);
  if (!f.why.empty()) throw SpoolUnsafeFile(name + ": " + f.why, f.foreign);
  if (f.fd.get() < 0 && f.err == ENOENT) return nullptr;
  if (f.fd.get() < 0)
    throw SpoolError(ErrorKind::kFailed,
                     fmt::format("spool: cannot open {}: {}", name, std::strerror(f.err)));
  return std::unique_ptr<SegmentReader>(new SegmentReader(std::move(f.fd), name, limit));
}

SegmentReader::SegmentReader(Fd fd, std::string name, std::uint64_t limit)
    : fd_(std::move(fd)), name_(std::move(name)), buf_(fd_.get(), limit), in_(&buf_) {
  header_ = read_segment_header(in_);
  if (header_.header) good_ = header_.bytes;
}

SegmentRecord SegmentReader::damaged(std::string why) const {
  SegmentRecord r;
  r.kind = SegmentRecord::Kind::kDamaged;
  r.offset = good_;
  r.why = std::move(why);
  return r;
}

SegmentRecord SegmentReader::next() {
  const record::RecordRead r = record::read_record(in_, kMaxEnvelopeBytes);
  if (buf_.error() != 0)
    throw SpoolError(ErrorKind::kFailed,
                     fmt::format("spool: cannot read {}: {}", name_, std::strerror(buf_.error())));
  SegmentRecord out;
  out.offset = good_;
  switch (r.status) {
    case RecordStatus::kEnd:
      return out;
    case RecordStatus::kTruncated:
      out.kind = SegmentRecord::Kind::kTorn;
      out.why = fmt::format("torn record (the file ends inside a record of {} bytes)", r.length);
      return out;
    case RecordStatus::kTooLarge:
    case RecordStatus::kBadCrc:
      return damaged(
          fmt::format("{} (record of {} bytes)", record::status_name(r.status), r.length));
    case RecordStatus::kOk:
      break;
  }
  DecodeResult decoded = decode_envelope(r.payload);
  if (!decoded.envelope) return damaged("undecodable envelope: " + decoded.error);
  if (decoded.envelope->instance_id() != header_.header->instance_id)
    return damaged("an envelope of another instance");
  good_ += record::kRecordHeaderBytes + r.length;
  out.kind = SegmentRecord::Kind::kEnvelope;
  out.envelope = std::move(*decoded.envelope);
  return out;
}

}  // namespace schedrig::spool
