// What the agent's spool takes and tells (docs/architecture.md "Spool"):
// its bounds, what an append did, its counters, what recovery found, and
// the instances waiting for replay.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "schedrig/v1/envelope.pb.h"

namespace schedrig::spool {

struct SpoolOptions {
  // Bound on the segments' bytes on disk (--spool-max-mb). Samples may fill
  // 7/8 of it; the last 1/8 is kept for results, so samples go first.
  std::uint64_t max_bytes = 256ull * 1024 * 1024;
  // A segment rolls once a record would take it past this (at most
  // max_bytes / 8, so acks can free space in pieces).
  std::uint64_t segment_bytes = 4ull * 1024 * 1024;
  // Samples and Logs are synced at most this often (and with the next
  // durable record); everything else is synced before append returns.
  std::chrono::milliseconds sample_sync_interval{1000};
  // This agent's --id. When set, open sets aside (NAME.orphan: never
  // replayed, not counted) the segments of instances it can never replay:
  // another agent_id's, or one whose Hello was lost. "" keeps them all.
  std::string agent_id;
};

enum class AppendOutcome {
  kStored,         // written to the spool
  kDroppedSample,  // a Sample, not written: the spool is full for samples (counted per run)
  kFull,           // not a Sample and not written: no room until acks free some; wait and retry
};

struct AppendResult {
  AppendOutcome outcome = AppendOutcome::kStored;
  bool synced = false;  // the segment was fdatasync'ed before append returned
};

// Counters since the spool was opened, and its size now.
struct SpoolStats {
  std::uint64_t stored = 0;           // envelopes written
  std::uint64_t dropped_samples = 0;  // Samples not written, all runs
  std::uint64_t full = 0;             // appends answered kFull
  std::uint64_t fsyncs = 0;           // fdatasync/fsync calls, segments and directory
  std::uint64_t bytes = 0;            // segments' bytes on disk
  std::uint64_t segments = 0;         // segment files
};

// Something recovery found wrong in a file; each is also logged as a warning.
struct RecoveryNote {
  std::string file;          // the file's name in the spool directory
  std::uint64_t offset = 0;  // the byte where the damage starts
  std::string what;          // what was wrong and what recovery did
};

// An instance with envelopes the host has not acked, oldest instance first.
struct PendingInstance {
  std::string instance_id;
  std::string agent_id;
  // Its first Hello, which a replay connection must send first (the host's
  // session rules); nullopt when damage took every copy of it.
  std::optional<schedrig::v1::Envelope> hello;
  std::uint64_t acked_seq = 0;  // highest seq the host acked
  std::uint64_t last_seq = 0;   // highest seq spooled
};

}  // namespace schedrig::spool
