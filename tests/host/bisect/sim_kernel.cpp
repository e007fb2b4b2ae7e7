#include "tests/host/bisect/sim_kernel.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "common/stats/normal_draws.h"

namespace schedrig::testing {
namespace {

// The features file's line.
std::string features_line() {
  const char* path = std::getenv("SCHEDRIG_SIMKERNEL_FEATURES");
  std::ifstream in(path ? path : "");
  std::string line;
  std::getline(in, line);
  return line;
}

std::set<std::string> features_off(const std::string& line) {
  std::set<std::string> off;
  std::istringstream in(line);
  std::string token;
  while (in >> token)
    if (token.rfind("NO_", 0) == 0) off.insert(token.substr(3));
  return off;
}

// FNV-1a of `text`: the noise is seeded by what the kernel looks like and
// how many iterations this agent ran, so a whole search repeats exactly.
std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 14695981039346656037ULL;
  for (const unsigned char c : text) h = (h ^ c) * 1099511628211ULL;
  return h;
}

workloads::WorkloadResult run(const workloads::Params&, const workloads::RunContext& ctx) {
  const std::string line = features_line();
  const std::set<std::string> off = features_off(line);
  double rate = 1000;
  if (off.count("NI_RANDOM")) rate *= 2;
  if (off.count("ALPHA_PAIR") && off.count("ZULU_PAIR")) rate *= 1.3;
  static std::atomic<std::uint64_t> calls{0};
  stats::NormalDraws draws(fnv1a(line) + 7919 * calls++);
  const auto end = std::chrono::steady_clock::now() + ctx.duration;
  while (std::chrono::steady_clock::now() < end && !(ctx.stop && ctx.stop->load()))
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  workloads::WorkloadResult r;
  r.metrics.push_back({"ops_per_s", rate * (1 + 0.01 * draws.next()), "ops/s",
                       workloads::Direction::kHigherIsBetter});
  return r;
}

void validate(const workloads::Params&, std::size_t) {}

}  // namespace

workloads::WorkloadInfo sim_kernel_workload() {
  return {"simkernel", "a simulated kernel whose rate follows the sched features file (tests)",
          {},          "ops_per_s",
          "ops/s",     workloads::Direction::kHigherIsBetter,
          validate,    run};
}

std::string sim_kernel_features() {
  std::string line = "NI_RANDOM ALPHA_PAIR ZULU_PAIR";  // sorted: ALPHA first, ZULU last
  for (int i = 3; i < 40; ++i) line += fmt::format(" F{:02}", i);
  return line;
}

}  // namespace schedrig::testing
