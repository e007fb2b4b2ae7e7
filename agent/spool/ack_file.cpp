#include "agent/spool/ack_file.h"

#include <fcntl.h>

#include <cerrno>
#include <cstring>
#include <istream>
#include <string_view>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "agent/spool/fd_streambuf.h"
#include "agent/spool/le_bytes.h"
#include "agent/spool/segment_format.h"
#include "agent/spool/spool_error.h"
#include "agent/spool/spool_fs.h"
#include "common/record/record_frame.h"

namespace schedrig::spool {
namespace {

constexpr char kAckMagic[8] = {'S', 'C', 'H', 'E', 'D', 'A', 'C', 'K'};
constexpr std::uint8_t kAckVersion = 1;
constexpr std::uint64_t kMaxAckFileBytes = 16 * 1024 * 1024;
constexpr char kAckTmpName[] = "acks.tmp";

bool read_magic(std::istream& in) {
  char start[sizeof kAckMagic + 1] = {};
  in.read(start, sizeof start);
  return static_cast<std::size_t>(in.gcount()) == sizeof start &&
         std::string_view(start, sizeof kAckMagic) ==
             std::string_view(kAckMagic, sizeof kAckMagic) &&
         static_cast<std::uint8_t>(start[sizeof kAckMagic]) == kAckVersion;
}

// Reads records into `acks` until the end; false at the first bad one.
bool read_acks(std::istream& in, AckedSeqs& acks) {
  for (;;) {
    const record::RecordRead r = record::read_record(in, 8 + 64);
    if (r.status == record::RecordStatus::kEnd) return true;
    if (r.status != record::RecordStatus::kOk || r.payload.size() < 9) return false;
    LeReader fields(r.payload);
    std::uint64_t seq = 0;
    fields.take(8, seq);
    std::string instance = r.payload.substr(8);
    if (!valid_instance_id(instance)) return false;
    acks[instance] = seq;
  }
}

}  // namespace

AckedSeqs load_acks(int dirfd, const std::string& dir) {
  AckedSeqs acks;
  const TrustedOpen f = open_trusted(dirfd, kAckFileName);
  if (!f.why.empty()) {
    spdlog::warn("spool: {}/{}: {}; ignored: acked envelopes will be replayed", dir, kAckFileName,
                 f.why);
    return acks;
  }
  if (f.fd.get() < 0) {
    if (f.err != ENOENT)
      spdlog::warn("spool: cannot read {}/{}: {}; acked envelopes will be replayed", dir,
                   kAckFileName, std::strerror(f.err));
    return acks;
  }
  const Fd& fd = f.fd;
  FdStreamBuf buf(fd.get(), kMaxAckFileBytes);
  std::istream in(&buf);
  if (!read_magic(in) || !read_acks(in, acks))
    spdlog::warn("spool: {}/{} is damaged; kept the {} ack(s) before the damage", dir, kAckFileName,
                 acks.size());
  return acks;
}

void save_acks(int dirfd, const std::string& dir, const AckedSeqs& acks) {
  std::string bytes(kAckMagic, sizeof kAckMagic);
  bytes.push_back(static_cast<char>(kAckVersion));
  for (const auto& [instance, seq] : acks) {
    std::string payload;
    put_le(payload, seq, 8);
    payload += instance;
    record::append_record(bytes, payload);
  }
  // A fresh file, not a truncated one: ext4 flushes a truncated file on close.
  remove_in(dirfd, kAckTmpName);
  const Fd fd = open_in(dirfd, kAckTmpName, O_WRONLY | O_CREAT | O_EXCL);
  const int err = fd.get() < 0 ? errno : write_all_at(fd.get(), bytes, 0);
  if (err != 0)
    throw SpoolError(ErrorKind::kFailed, fmt::format("spool: cannot write {}/{}: {}", dir,
                                                     kAckTmpName, std::strerror(err)));
  rename_in(dirfd, kAckTmpName, kAckFileName);
}

}  // namespace schedrig::spool
