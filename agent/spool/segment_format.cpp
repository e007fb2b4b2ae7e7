#include "agent/spool/segment_format.h"

#include <stdexcept>
#include <string_view>

#include <fmt/format.h>

#include "agent/spool/le_bytes.h"
#include "common/record/record_frame.h"

namespace schedrig::spool {
namespace {

constexpr std::string_view kPrefix = "seg-";
constexpr std::string_view kSuffix = ".spool";
constexpr std::size_t kMaxHeaderPayload = 8 + 2 + 64 + 2 + kMaxAgentIdBytes;

std::optional<SegmentHeader> decode_header(std::string_view payload) {
  LeReader r(payload);
  SegmentHeader h;
  if (!r.take(8, h.number) || !r.take_short_string(h.instance_id) ||
      !r.take_short_string(h.agent_id) || !r.done() || !valid_instance_id(h.instance_id))
    return std::nullopt;
  return h;
}

}  // namespace

bool valid_instance_id(const std::string& id) {
  if (id.empty() || id.size() > 64) return false;
  for (const char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_';
    if (!ok) return false;
  }
  return true;
}

std::string segment_file_name(std::uint64_t number, const std::string& instance_id,
                              std::uint64_t first_seq) {
  return fmt::format("{}{:020}-{}-{:020}{}", kPrefix, number, instance_id, first_seq, kSuffix);
}

bool is_segment_file_name(const std::string& name) {
  return name.size() > kPrefix.size() + kSuffix.size() && name.starts_with(kPrefix) &&
         name.ends_with(kSuffix);
}

std::string encode_segment_header(const SegmentHeader& header) {
  if (!valid_instance_id(header.instance_id))
    throw std::invalid_argument("spool: instance id is not 1-64 of [A-Za-z0-9_-]");
  if (header.agent_id.size() > kMaxAgentIdBytes)
    throw std::invalid_argument(fmt::format("spool: agent id over {} bytes", kMaxAgentIdBytes));
  std::string payload;
  put_le(payload, header.number, 8);
  put_short_string(payload, header.instance_id);
  put_short_string(payload, header.agent_id);
  std::string out(kSegmentMagic, sizeof kSegmentMagic);
  out.push_back(static_cast<char>(kSegmentVersion));
  record::append_record(out, payload);
  return out;
}

HeaderRead read_segment_header(std::istream& in) {
  HeaderRead h;
  char start[sizeof kSegmentMagic + 1] = {};
  in.read(start, sizeof start);
  if (static_cast<std::size_t>(in.gcount()) < sizeof start) {
    h.torn = true;
    h.error = "the file ends inside its header";
    return h;
  }
  if (std::string_view(start, sizeof kSegmentMagic) !=
      std::string_view(kSegmentMagic, sizeof kSegmentMagic)) {
    h.error = "bad magic (not a spool segment)";
    return h;
  }
  if (static_cast<std::uint8_t>(start[sizeof kSegmentMagic]) != kSegmentVersion) {
    h.error = fmt::format("segment version {} (this build reads {})",
                          static_cast<unsigned char>(start[sizeof kSegmentMagic]), kSegmentVersion);
    return h;
  }
  const record::RecordRead r = record::read_record(in, kMaxHeaderPayload);
  if (r.status == record::RecordStatus::kEnd || r.status == record::RecordStatus::kTruncated) {
    h.torn = true;
    h.error = "the file ends inside its header";
    return h;
  }
  if (r.status != record::RecordStatus::kOk) {
    h.error = fmt::format("header record {}", record::status_name(r.status));
    return h;
  }
  h.header = decode_header(r.payload);
  if (!h.header) h.error = "header record malformed";
  h.bytes = sizeof start + record::kRecordHeaderBytes + r.length;
  return h;
}

}  // namespace schedrig::spool
