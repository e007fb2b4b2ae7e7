// The faults suite's rig (tests/faults, issue #13): a temporary directory
// with a tokens file (agent box1, operator alice), `schedrig serve` on a
// fixed loopback port and one store file, so it can be SIGKILLed and
// restarted in place, and `schedrig-agent connect` as box1 with a fake root
// (the autogroup sysctl as a plain file, a copy of /proc/stat for the
// sampler: no real knob is ever touched) and its own state dir, so it can be
// SIGKILLed and restarted on the same state. Processes are ChildProcesses
// (tests/support/child_process.h): each incarnation logs to its own file.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <random>
#include <string>

#include "tests/faults/store_view.h"
#include "tests/support/child_process.h"
#include "tests/support/run_command.h"

namespace schedrig::testing {

// The suite's seed: SCHEDRIG_FAULT_SEED when set, else from the clock;
// printed to stdout first ("faults: seed N (replay with
// SCHEDRIG_FAULT_SEED=N)") so a failing draw can be replayed.
std::uint64_t fault_seed();

class FaultRig {
 public:
  FaultRig();
  ~FaultRig();

  // Starts serve on port() with the store file; waits until it listens.
  // Returns false (with the log in `why`) when it did not within 15 s.
  bool start_serve(std::string* why);
  // SIGKILL, then reaps it.
  void kill_serve();
  bool serve_running() const { return serve_ != nullptr; }
  unsigned short port() const { return port_; }

  // Starts the agent on ws://127.0.0.1:`port`/agent (serve's, or a proxy's).
  void start_agent(unsigned short port);
  void kill_agent();
  ChildProcess* agent() { return agent_.get(); }
  int agent_starts() const { return agent_starts_; }

  // Writes `yaml` to a plan file and queues it on box1 with `schedrig run
  // --server` (no --wait): the run id, or "" with the CLI's output in `why`.
  std::string submit(const std::string& yaml, std::string* why);
  // `schedrig watch RUN --server` as a child, following `run` across the
  // serve restarts (host/client/server_outage.h); its log in the rig's dir.
  std::unique_ptr<ChildProcess> watch(const std::string& run) const;

  const StoreView& store() const { return store_; }
  // The fake autogroup knob's value, trimmed ("1" as the rig writes it).
  std::string knob() const;
  // The last `bytes` of the current serve's and agent's logs, for failures.
  std::string log_tails(std::size_t bytes = 6000) const;

 private:
  TempDir dir_;
  unsigned short port_ = 0;
  StoreView store_;
  std::unique_ptr<ChildProcess> serve_, agent_;
  int serve_starts_ = 0, agent_starts_ = 0, plans_ = 0;
};

// Seconds since `t0`, for progress lines.
double seconds_since(std::chrono::steady_clock::time_point t0);

}  // namespace schedrig::testing
