// STATE/current-run (docs/architecture.md "Agent", issue #13 contract 5):
// which run this agent instance has under way, so the next instance can
// report it failed when this one dies mid-run (kill -9, a reboot). Written
// 0600 and fsynced (pending_file.h) when a run starts, removed once its
// RunFinished is in the spool.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "schedrig/v1/envelope.pb.h"

namespace schedrig::agent {

struct CurrentRun {
  std::string run_id;
  std::string instance_id;  // the instance that ran it
  std::string boot_id;      // the kernel's boot_id then
};

// STATE_DIR/current-run
std::string current_run_path(const std::string& state_dir);

// Writes `run` to `file` atomically. Throws std::runtime_error naming the file.
void write_current_run(const std::string& file, const CurrentRun& run);

// What `file` holds; nullopt when there is none or it is unreadable or
// malformed (logged as a warning: a torn file names no run to report), or
// is not a regular file of this user or root (a link, a FIFO, a planted
// file: warned, ignored).
std::optional<CurrentRun> read_current_run(const std::string& file);

// Removes `file` if it is there.
void remove_current_run(const std::string& file);

// The RunFinished a new instance sends for `run`, left unfinished by an
// earlier one: FAILED, "agent restarted; boot_id unchanged" (or "changed"
// when `boot_id_now` differs from the run's), no completed iterations known.
schedrig::v1::Envelope restart_report(const CurrentRun& run, const std::string& boot_id_now);

// The restart report (contract 5): when STATE_DIR/current-run names a run
// of another instance, hands its restart_report() to `send` (the uplink:
// after this instance's Hello and Topology), logs it, and removes the file.
// Returns the run_id reported ("" = none).
std::string report_unfinished_run(const std::string& state_dir, const std::string& instance_id,
                                  const std::string& boot_id_now,
                                  const std::function<std::uint64_t(schedrig::v1::Envelope)>& send);

}  // namespace schedrig::agent
