// The agent's on-disk spool of agent->host envelopes, STATE/spool/
// (docs/architecture.md "Spool"): every envelope is appended before it is
// sent, and kept until the host acks it, so nothing is lost while the link is
// down or the agent restarts. Segment files (segment_format.h) of checked
// records; an ack file (ack_file.h); recovery on open (recovery.h).
//
// Thread-safe: one mutex guards the spool (the link appends from the runner
// and the sampler thread, acks arrive on its I/O thread). Replay cursors read
// without it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "agent/spool/ack_file.h"
#include "agent/spool/replay_cursor.h"
#include "agent/spool/segment_writer.h"
#include "agent/spool/spool_fs.h"
#include "agent/spool/spool_state.h"
#include "agent/spool/spool_types.h"
#include "schedrig/v1/envelope.pb.h"

namespace schedrig::spool {

// Everything one instance still owes the host, for small spools and tests
// (a replay should walk pending() and replay() instead).
struct InstanceBacklog {
  PendingInstance instance;
  std::vector<schedrig::v1::Envelope> envelopes;  // unacked, seq order, no Hello
};

class Spool {
 public:
  // Opens `dir` (created 0700 if missing, never through a link) and
  // recovers what is in it (recovery.h); segments whose every record is
  // acked (ack file) are deleted; with options.agent_id set, unacked
  // instances this agent can never replay are set aside as *.orphan (one
  // warning each, naming the files and what to do). Throws SpoolError: kUsage when the
  // directory cannot be made or opened, kFailed on an I/O error.
  explicit Spool(std::string dir, SpoolOptions options = {});
  ~Spool();  // syncs what is not yet synced, saves the acks
  Spool(const Spool&) = delete;
  Spool& operator=(const Spool&) = delete;

  // Appends `env` as stamped by the caller (nothing is stamped here). Its
  // instance_id must be 1-64 of [A-Za-z0-9_-], its seq above every seq the
  // spool holds for that instance, and an instance has one Hello (a
  // reconnect re-sends it and does not append it again): else
  // std::invalid_argument. When the bytes would pass max_bytes (a Sample:
  // 7/8 of it) a Sample is dropped (counted for its run) and anything else
  // is refused with kFull, written nowhere; a full disk (ENOSPC, EDQUOT)
  // answers the same. An agent_id over 1024 bytes or an envelope over
  // kMaxEnvelopeBytes (4 MiB): std::invalid_argument.
  // Syncing: envelope_class.h. Throws SpoolError on any
  // other write or sync failure.
  AppendResult append(const schedrig::v1::Envelope& env);

  // The host stored every envelope of `instance_id` up to `seq` (a
  // cumulative Ack): segments whose every record is acked are deleted (not
  // the one being appended to, unless room is needed). The ack file is
  // rewritten when a segment went, else at most once a second, and on
  // close. An unknown instance or a lower seq changes nothing.
  void ack(const std::string& instance_id, std::uint64_t seq);

  // Waits up to `timeout` until append(env) would find room (acks freed
  // some), e.g. for a result refused kFull; true when it would.
  bool wait_for_room(const schedrig::v1::Envelope& env, std::chrono::milliseconds timeout);

  // Instances with unacked envelopes, oldest first (by their first segment).
  std::vector<PendingInstance> pending() const;

  // A cursor over `instance_id`'s unacked envelopes, in seq order
  // (replay_cursor.h); empty for an unknown instance. It must not outlive
  // the spool.
  ReplayCursor replay(const std::string& instance_id) const;

  // pending() with each instance's envelopes read in full.
  std::vector<InstanceBacklog> unacked() const;

  // Syncs the segment being appended to if anything is not yet synced;
  // true when it synced (a caller's timer may call it).
  bool sync();

  // Samples of `run_id` dropped because the spool was full, since it opened.
  std::uint64_t dropped_samples(const std::string& run_id) const;

  SpoolStats stats() const;

  // What recovery found on open (also logged).
  const std::vector<RecoveryNote>& recovery_notes() const { return notes_; }

  const std::string& dir() const { return dir_; }

 private:
  void set_aside_orphans();
  void set_aside(const std::string& instance_id, const std::string& why);
  void check_order(const schedrig::v1::Envelope& env) const;
  std::string hello_record(const InstanceState& inst) const;
  bool needs_new_segment(const std::string& instance_id, std::size_t record_bytes) const;
  std::uint64_t room_needed(const schedrig::v1::Envelope& env, std::size_t record_bytes) const;
  bool has_room(std::uint64_t bytes, bool sample) const;
  bool make_room(std::uint64_t bytes, bool sample);
  AppendResult refuse(const schedrig::v1::Envelope& env);
  void open_segment(const schedrig::v1::Envelope& env);
  void close_active();
  bool acked_whole(const SegmentInfo& seg) const;
  bool delete_acked(bool include_active);  // true when it deleted one
  void forget_finished_instances();
  void save_ack_file();
  bool sync_active();
  std::uint64_t segment_limit() const;

  std::string dir_;
  SpoolOptions options_;
  Fd dirfd_;
  mutable std::mutex mu_;
  std::condition_variable room_cv_;
  SpoolContents contents_;
  std::vector<RecoveryNote> notes_;
  std::unique_ptr<SegmentWriter> active_;  // the segment being appended to (the last one), if any
  std::uint64_t active_start_ = 0;         // its size before its first own record
  std::uint64_t bytes_ = 0;
  std::map<std::string, std::uint64_t> dropped_;  // run_id -> samples dropped
  SpoolStats stats_;
  std::chrono::steady_clock::time_point last_sync_;
  AckedSeqs saved_acks_;  // what the ack file holds
  std::chrono::steady_clock::time_point acks_saved_at_;
};

}  // namespace schedrig::spool
