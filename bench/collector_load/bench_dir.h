// collector_load's throwaway world in one temporary directory: a test PKI
// (tests/support/test_pki), a tokens file with one agent token per
// simulated agent ("sim-0000", ...), and store files in which every
// simulated agent has one run queued, so the collector's ownership rule
// (run envelopes only for a run queued for that agent) accepts its results.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "tests/support/test_pki.h"

namespace schedrig::bench {

// Who one simulated agent is and which run it streams.
struct SimAgentSpec {
  std::string agent_id;  // "sim-0007"
  std::string token;
  std::string run_id;  // queued for agent_id in the store it was made for
};

class BenchDir {
 public:
  // mkdtemp under $SCHEDRIG_BENCH_DIR, $TMPDIR or /tmp; the PKI and tokens
  // for `agents` agents. Throws std::runtime_error / schedrig::Error.
  BenchDir(std::size_t agents, bool keep);
  ~BenchDir();  // removes the directory unless `keep`
  BenchDir(const BenchDir&) = delete;
  BenchDir& operator=(const BenchDir&) = delete;

  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }
  const testing::TestPki& pki() const { return pki_; }
  const std::string& tokens_file() const { return tokens_file_; }

  // A new store file `db` (under path()) with, when `queue_runs`, one fresh
  // run queued for each of the first `agents` agents; their specs, in agent
  // order (run_id "" without runs).
  std::vector<SimAgentSpec> make_store(const std::string& db, std::size_t agents,
                                       bool queue_runs) const;

 private:
  std::string path_;
  bool keep_ = false;
  testing::TestPki pki_;
  std::string tokens_file_;
  std::vector<SimAgentSpec> agents_;  // run_id empty
};

// "sim-0007" for 7.
std::string sim_agent_id(std::size_t index);

}  // namespace schedrig::bench
