#include "agent/spool/recovery.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <limits>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "agent/spool/segment_reader.h"
#include "agent/spool/spool_error.h"
#include "agent/spool/spool_fs.h"

namespace schedrig::spool {
namespace {

using Kind = SegmentRecord::Kind;

void note(SpoolContents& c, const std::string& dir, RecoveryNote n) {
  spdlog::warn("spool: {}/{} at byte {}: {}", dir, n.file, n.offset, n.what);
  c.notes.push_back(std::move(n));
}

// A file whose header is not good: removed when empty, else set aside (a
// header that seems cut short may be a flipped length in a full segment).
void drop_bad_header(SpoolContents& c, int dirfd, const std::string& dir, const std::string& name,
                     const HeaderRead& h, std::uint64_t size) {
  if (size == 0) {
    remove_in(dirfd, name);
    note(c, dir, {name, 0, h.error + "; removed (it held no record)"});
    return;
  }
  rename_in(dirfd, name, name + ".damaged");
  note(c, dir, {name, 0, h.error + "; renamed " + name + ".damaged, not replayed"});
}

// Takes one checked envelope into the segment and its instance; false when
// its seq does not rise (a Hello, first or a copy, keeps its own seq).
bool take(SegmentInfo& seg, InstanceState& inst, const schedrig::v1::Envelope& env) {
  if (env.has_hello()) {
    if (!inst.hello) inst.hello = env;
    inst.last_seq = std::max(inst.last_seq, env.seq());
  } else {
    if (env.seq() <= inst.last_seq) return false;
    inst.last_seq = env.seq();
  }
  seg.last_seq = std::max(seg.last_seq, env.seq());
  return true;
}

// Reads the records after a good header; returns where the good bytes end.
std::uint64_t read_records(SpoolContents& c, int dirfd, const std::string& dir,
                           SegmentReader& reader, SegmentInfo& seg, InstanceState& inst) {
  for (;;) {
    SegmentRecord r = reader.next();
    if (r.kind == Kind::kEnvelope && take(seg, inst, r.envelope)) continue;
    if (r.kind == Kind::kEnvelope) {
      note(c, dir,
           {seg.name, r.offset,
            fmt::format("seq {} is not above {}; the segment stops here", r.envelope.seq(),
                        inst.last_seq)});
      return r.offset;
    }
    if (r.kind == Kind::kTorn) {
      cut_file(dirfd, seg.name, r.offset);
      note(c, dir, {seg.name, r.offset, r.why + "; cut off"});
      seg.file_bytes = r.offset;
    } else if (r.kind == Kind::kDamaged) {
      note(c, dir,
           {seg.name, r.offset, r.why + "; the segment stops here, nothing after it replayed"});
    }
    return reader.good_bytes();
  }
}

// A segment name that is not a regular file (a FIFO, a link: NAME.bad) or
// belongs to another user (skipped, left as it is).
void set_aside_unsafe(SpoolContents& c, int dirfd, const std::string& dir, const std::string& name,
                      const SpoolUnsafeFile& e) {
  if (e.foreign())
    return note(c, dir, {name, 0, std::string(e.what()) + "; skipped, not replayed"});
  rename_in(dirfd, name, name + ".bad");
  note(c, dir, {name, 0, std::string(e.what()) + "; renamed " + name + ".bad, not replayed"});
}

std::uint64_t file_size(int dirfd, const std::string& name) {
  struct stat st {};
  if (::fstatat(dirfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return 0;
  return static_cast<std::uint64_t>(st.st_size);
}

void recover_segment(SpoolContents& c, int dirfd, const std::string& dir, const std::string& name,
                     const AckedSeqs& acks) {
  std::unique_ptr<SegmentReader> reader;
  try {
    reader = SegmentReader::open(dirfd, name, std::numeric_limits<std::uint64_t>::max());
  } catch (const SpoolUnsafeFile& e) {
    return set_aside_unsafe(c, dirfd, dir, name, e);
  }
  if (!reader) return;
  const HeaderRead& h = reader->header();
  const std::uint64_t size = file_size(dirfd, name);
  if (!h.header) return drop_bad_header(c, dirfd, dir, name, h, size);
  SegmentInfo seg{name, h.header->number, h.header->instance_id, 0, 0, size};
  InstanceState& inst = c.instances[seg.instance_id];
  inst.agent_id = h.header->agent_id;
  if (const auto a = acks.find(seg.instance_id); a != acks.end()) inst.acked = a->second;
  seg.good_bytes = read_records(c, dirfd, dir, *reader, seg, inst);
  c.next_number = std::max(c.next_number, seg.number + 1);
  c.segments.push_back(std::move(seg));
}

}  // namespace

SpoolContents recover(int dirfd, const std::string& dir, const AckedSeqs& acks) {
  SpoolContents c;
  std::vector<std::pair<std::uint64_t, std::string>> names;
  for (std::string& name : list_names(dirfd, dir)) {
    if (!is_segment_file_name(name)) continue;
    // Read in number order (the name's number; the header's is what counts).
    const auto number = std::strtoull(name.c_str() + 4, nullptr, 10);
    c.next_number =
        std::max<std::uint64_t>(c.next_number, number + 1);  // even for a file set aside
    names.emplace_back(number, std::move(name));
  }
  std::sort(names.begin(), names.end());
  for (const auto& [number, name] : names) recover_segment(c, dirfd, dir, name, acks);
  std::stable_sort(c.segments.begin(), c.segments.end(),
                   [](const SegmentInfo& a, const SegmentInfo& b) { return a.number < b.number; });
  return c;
}

}  // namespace schedrig::spool
