#include "agent/spool/spool.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "agent/spool/ack_file.h"
#include "agent/spool/envelope_class.h"
#include "agent/spool/recovery.h"
#include "agent/spool/spool_error.h"
#include "common/envelope_codec.h"
#include "common/record/record_frame.h"

namespace schedrig::spool {

Spool::Spool(std::string dir, SpoolOptions options)
    : dir_(std::move(dir)), options_(options), dirfd_(open_spool_dir(dir_)) {
  saved_acks_ = load_acks(dirfd_.get(), dir_);
  contents_ = recover(dirfd_.get(), dir_, saved_acks_);
  notes_ = contents_.notes;
  for (const SegmentInfo& seg : contents_.segments) bytes_ += seg.file_bytes;
  delete_acked(false);
  set_aside_orphans();
  forget_finished_instances();
  save_ack_file();
  last_sync_ = std::chrono::steady_clock::now();
}

Spool::~Spool() {
  try {
    const std::lock_guard lock(mu_);
    sync_active();
    save_ack_file();
  } catch (const std::exception& e) {
    spdlog::warn("{}", e.what());
  }
}

AppendResult Spool::append(const schedrig::v1::Envelope& env) {
  const std::lock_guard lock(mu_);
  check_order(env);
  const std::string bytes = encode_envelope(env);
  if (bytes.size() > kMaxEnvelopeBytes)  // the reader would call it damage
    throw std::invalid_argument(
        fmt::format("spool: an envelope of {} bytes is over the {}-byte limit", bytes.size(),
                    kMaxEnvelopeBytes));
  const std::string rec = record::framed_record(bytes);
  const bool sample = droppable(env);
  // Making room may delete the segment being appended to: ask again.
  if (!make_room(room_needed(env, rec.size()), sample) ||
      !has_room(room_needed(env, rec.size()), sample))
    return refuse(env);
  try {
    if (needs_new_segment(env.instance_id(), rec.size())) open_segment(env);
  } catch (const SpoolNoSpace& e) {
    spdlog::warn("{}", e.what());
    return refuse(env);
  }
  if (const int err = active_->append(rec); err != 0) {
    if (err == ENOSPC || err == EDQUOT) return refuse(env);
    throw SpoolError(ErrorKind::kFailed, fmt::format("spool: cannot write {}/{}: {}", dir_,
                                                     active_->name(), std::strerror(err)));
  }
  SegmentInfo& seg = contents_.segments.back();
  seg.last_seq = env.seq();
  seg.good_bytes = seg.file_bytes = active_->size();
  bytes_ += rec.size();
  InstanceState& inst = contents_.instances[env.instance_id()];
  inst.last_seq = env.seq();
  if (env.has_hello()) inst.hello = env;
  ++stats_.stored;
  AppendResult out;
  const auto now = std::chrono::steady_clock::now();
  if (durable(env) || now - last_sync_ >= options_.sample_sync_interval) out.synced = sync_active();
  return out;
}

// Instances no replay of this agent will send (uplink_replay.cpp skips
// them) would hold their bytes against max_bytes forever and could stall
// this agent before its own Hello.
void Spool::set_aside_orphans() {
  if (options_.agent_id.empty()) return;
  for (const auto& [id, inst] : contents_.instances) {
    if (inst.last_seq <= inst.acked) continue;
    if (!inst.hello)
      set_aside(id, "its Hello is lost, so no agent can replay it");
    else if (inst.agent_id != options_.agent_id)
      set_aside(id, fmt::format("it is agent '{}''s, not this agent's ('{}')", inst.agent_id,
                                options_.agent_id));
  }
}

// Renames the instance's segments NAME.orphan and forgets them, with one
// warning naming the files, `why` and what a person may do.
void Spool::set_aside(const std::string& instance_id, const std::string& why) {
  std::string files;
  auto& segs = contents_.segments;
  for (std::size_t i = 0; i < segs.size();) {
    if (segs[i].instance_id != instance_id) {
      ++i;
      continue;
    }
    rename_in(dirfd_.get(), segs[i].name, segs[i].name + ".orphan");
    files += (files.empty() ? "" : ", ") + segs[i].name + ".orphan";
    bytes_ -= segs[i].file_bytes;
    segs.erase(segs.begin() + static_cast<std::ptrdiff_t>(i));
  }
  const InstanceState& inst = contents_.instances.at(instance_id);
  spdlog::warn(
      "spool {}: instance {} has {} unacked envelope(s) this agent never replays: {}; set aside "
      "(not replayed, not counted against --spool-max-mb): {}. To replay them, rename them back "
      "to .spool (drop .orphan) and start the agent with --id '{}'; or delete them",
      dir_, instance_id, inst.last_seq - inst.acked, why, files,
      inst.agent_id.empty() ? std::string("OTHER") : inst.agent_id);
  sync_dir(dirfd_.get(), dir_);
}

void Spool::check_order(const schedrig::v1::Envelope& env) const {
  if (!valid_instance_id(env.instance_id()))
    throw std::invalid_argument("spool: instance id is not 1-64 of [A-Za-z0-9_-]");
  if (env.seq() == 0) throw std::invalid_argument("spool: an envelope without a seq");
  const auto it = contents_.instances.find(env.instance_id());
  if (it == contents_.instances.end()) return;
  if (env.seq() <= it->second.last_seq)
    throw std::invalid_argument(
        fmt::format("spool: seq {} is not above {}, the last of instance {}", env.seq(),
                    it->second.last_seq, env.instance_id()));
  if (env.has_hello() && it->second.hello)
    throw std::invalid_argument("spool: instance " + env.instance_id() + " has its Hello already");
}

std::string Spool::hello_record(const InstanceState& inst) const {
  return inst.hello ? record::framed_record(encode_envelope(*inst.hello)) : std::string();
}

std::uint64_t Spool::segment_limit() const {
  return std::min(options_.segment_bytes, options_.max_bytes / 8);
}

bool Spool::needs_new_segment(const std::string& instance_id, std::size_t record_bytes) const {
  if (!active_ || contents_.segments.back().instance_id != instance_id) return true;
  return active_->size() > active_start_ && active_->size() + record_bytes > segment_limit();
}

std::uint64_t Spool::room_needed(const schedrig::v1::Envelope& env,
                                 std::size_t record_bytes) const {
  if (!needs_new_segment(env.instance_id(), record_bytes)) return record_bytes;
  const auto it = contents_.instances.find(env.instance_id());
  const std::string copy =
      it == contents_.instances.end() || env.has_hello() ? std::string() : hello_record(it->second);
  const SegmentHeader header{0, env.instance_id(), env.agent_id()};
  return record_bytes + encode_segment_header(header).size() + copy.size();
}

bool Spool::has_room(std::uint64_t bytes, bool sample) const {
  const std::uint64_t limit =
      sample ? options_.max_bytes - options_.max_bytes / 8 : options_.max_bytes;
  return bytes_ + bytes <= limit;
}

bool Spool::make_room(std::uint64_t bytes, bool sample) {
  if (has_room(bytes, sample)) return true;
  delete_acked(true);
  return has_room(bytes, sample);
}

AppendResult Spool::refuse(const schedrig::v1::Envelope& env) {
  if (!droppable(env)) {
    ++stats_.full;
    return {AppendOutcome::kFull, false};
  }
  if (dropped_[env.sample().run_id()]++ == 0)
    spdlog::warn("spool {} is full ({} of {} bytes): dropping samples of run {}", dir_, bytes_,
                 options_.max_bytes, env.sample().run_id());
  ++stats_.dropped_samples;
  return {AppendOutcome::kDroppedSample, false};
}

void Spool::open_segment(const schedrig::v1::Envelope& env) {
  close_active();
  InstanceState& inst = contents_.instances[env.instance_id()];
  inst.live = true;
  if (inst.agent_id.empty()) inst.agent_id = env.agent_id();
  const SegmentHeader header{contents_.next_number++, env.instance_id(), inst.agent_id};
  const std::string copy = env.has_hello() ? std::string() : hello_record(inst);
  std::string name = segment_file_name(header.number, header.instance_id, env.seq());
  active_ = std::make_unique<SegmentWriter>(dirfd_.get(), dir_, name, header, copy);
  stats_.fsyncs += 2;  // the new file and the directory
  active_start_ = active_->size();
  const std::uint64_t copy_seq = copy.empty() ? 0 : inst.hello->seq();
  contents_.segments.push_back(
      {std::move(name), header.number, header.instance_id, copy_seq, active_start_, active_start_});
  bytes_ += active_start_;
}

void Spool::close_active() {
  if (!active_) return;
  sync_active();
  active_.reset();
  delete_acked(false);
}

bool Spool::acked_whole(const SegmentInfo& seg) const {
  const auto it = contents_.instances.find(seg.instance_id);
  return it != contents_.instances.end() && seg.last_seq <= it->second.acked;
}

bool Spool::delete_acked(bool include_active) {
  auto& segs = contents_.segments;
  const std::size_t before = segs.size();
  for (std::size_t i = 0; i < segs.size();) {
    const bool is_active = active_ && i + 1 == segs.size();
    if ((is_active && !include_active) || !acked_whole(segs[i])) {
      ++i;
      continue;
    }
    if (is_active) active_.reset();
    remove_in(dirfd_.get(), segs[i].name);
    bytes_ -= segs[i].file_bytes;
    segs.erase(segs.begin() + static_cast<std::ptrdiff_t>(i));
  }
  return segs.size() != before;
}

void Spool::forget_finished_instances() {
  std::erase_if(contents_.instances, [this](const auto& entry) {
    return !entry.second.live &&
           std::none_of(contents_.segments.begin(), contents_.segments.end(),
                        [&](const SegmentInfo& s) { return s.instance_id == entry.first; });
  });
}

void Spool::save_ack_file() {
  AckedSeqs acks;
  for (const auto& [id, inst] : contents_.instances)
    if (inst.acked > 0) acks[id] = inst.acked;
  if (acks == saved_acks_) return;
  save_acks(dirfd_.get(), dir_, acks);
  saved_acks_ = std::move(acks);
  acks_saved_at_ = std::chrono::steady_clock::now();
}

bool Spool::sync_active() {
  if (!active_ || !active_->sync()) return false;
  ++stats_.fsyncs;
  last_sync_ = std::chrono::steady_clock::now();
  return true;
}

void Spool::ack(const std::string& instance_id, std::uint64_t seq) {
  const std::lock_guard lock(mu_);
  const auto it = contents_.instances.find(instance_id);
  if (it == contents_.instances.end() || seq <= it->second.acked) return;
  it->second.acked = seq;
  const bool deleted = delete_acked(false);
  forget_finished_instances();
  if (deleted || std::chrono::steady_clock::now() - acks_saved_at_ >= std::chrono::seconds(1))
    save_ack_file();
  room_cv_.notify_all();
}

bool Spool::wait_for_room(const schedrig::v1::Envelope& env, std::chrono::milliseconds timeout) {
  const std::size_t record_bytes = record::kRecordHeaderBytes + env.ByteSizeLong();
  std::unique_lock lock(mu_);
  return room_cv_.wait_for(
      lock, timeout, [&] { return make_room(room_needed(env, record_bytes), droppable(env)); });
}

std::vector<PendingInstance> Spool::pending() const {
  const std::lock_guard lock(mu_);
  std::vector<PendingInstance> out;
  for (const SegmentInfo& seg : contents_.segments) {
    const InstanceState& inst = contents_.instances.at(seg.instance_id);
    const bool listed = std::any_of(out.begin(), out.end(), [&](const PendingInstance& p) {
      return p.instance_id == seg.instance_id;
    });
    if (!listed && inst.last_seq > inst.acked)
      out.push_back({seg.instance_id, inst.agent_id, inst.hello, inst.acked, inst.last_seq});
  }
  return out;
}

ReplayCursor Spool::replay(const std::string& instance_id) const {
  const std::lock_guard lock(mu_);
  std::vector<ReplayCursor::Part> parts;
  const auto& segs = contents_.segments;
  for (std::size_t i = 0; i < segs.size(); ++i) {
    if (segs[i].instance_id != instance_id) continue;
    const bool is_active = active_ && i + 1 == segs.size();
    parts.push_back({segs[i].name, is_active ? active_->size() : segs[i].good_bytes});
  }
  const auto it = contents_.instances.find(instance_id);
  const std::uint64_t acked = it == contents_.instances.end() ? 0 : it->second.acked;
  return ReplayCursor(dirfd_.get(), dir_, std::move(parts), acked);
}

std::vector<InstanceBacklog> Spool::unacked() const {
  std::vector<InstanceBacklog> out;
  for (PendingInstance& p : pending()) {
    ReplayCursor cursor = replay(p.instance_id);
    InstanceBacklog backlog{std::move(p), {}};
    while (auto env = cursor.next()) backlog.envelopes.push_back(std::move(*env));
    out.push_back(std::move(backlog));
  }
  return out;
}

bool Spool::sync() {
  const std::lock_guard lock(mu_);
  return sync_active();
}

std::uint64_t Spool::dropped_samples(const std::string& run_id) const {
  const std::lock_guard lock(mu_);
  const auto it = dropped_.find(run_id);
  return it == dropped_.end() ? 0 : it->second;
}

SpoolStats Spool::stats() const {
  const std::lock_guard lock(mu_);
  SpoolStats s = stats_;
  s.bytes = bytes_;
  s.segments = contents_.segments.size();
  return s;
}

}  // namespace schedrig::spool
