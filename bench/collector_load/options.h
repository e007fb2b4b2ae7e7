// collector_load's flags (main.cpp) as the modes see them.
#pragma once

#include <cstddef>
#include <string>

namespace schedrig::bench {

struct Options {
  std::string mode = "all";  // throughput | latency | scale | all
  std::size_t agents = 64;   // simulated agents for throughput and latency
  double seconds = 10;       // measured time per throughput / latency round
  std::size_t idle = 1000;   // idle agents for scale
  std::size_t window = 256;  // unacked envelopes per agent at most (throughput)
  double hz = 10;            // Samples per second per agent (latency)
  int repeats = 3;           // rounds; modes interleave round by round
  std::string schedrig;      // the `schedrig` binary
  bool keep_dir = false;     // leave the temp dir (stores, serve logs)
  bool json = false;
};

}  // namespace schedrig::bench
