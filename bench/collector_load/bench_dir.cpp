#include "bench/collector_load/bench_dir.h"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include <fmt/format.h>

#include "bench/collector_load/sim_envelopes.h"
#include "common/auth/token_set.h"
#include "common/ids.h"
#include "host/store/store.h"

namespace schedrig::bench {

namespace {

std::string temp_base() {
  for (const char* var : {"SCHEDRIG_BENCH_DIR", "TMPDIR"}) {
    const char* dir = std::getenv(var);
    if (dir && *dir) return dir;
  }
  return "/tmp";
}

std::string make_temp_dir() {
  std::string templ = temp_base() + "/schedrig-collector-load-XXXXXX";
  if (!::mkdtemp(templ.data())) throw std::runtime_error("mkdtemp " + templ + " failed");
  return templ;
}

}  // namespace

std::string sim_agent_id(std::size_t index) { return fmt::format("sim-{:04}", index); }

BenchDir::BenchDir(std::size_t agents, bool keep)
    : path_(make_temp_dir()), keep_(keep), tokens_file_(path_ + "/tokens") {
  pki_ = testing::make_test_pki(path_);
  for (std::size_t i = 0; i < agents; ++i) {
    SimAgentSpec a;
    a.agent_id = sim_agent_id(i);
    a.token = auth::append_new_token(tokens_file_, auth::Role::kAgent, a.agent_id);
    agents_.push_back(std::move(a));
  }
}

BenchDir::~BenchDir() {
  if (keep_) return;
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::vector<SimAgentSpec> BenchDir::make_store(const std::string& db, std::size_t agents,
                                               bool queue_runs) const {
  if (agents > agents_.size()) {
    throw std::runtime_error(
        fmt::format("{} agents asked, {} have tokens", agents, agents_.size()));
  }
  store::Store store(db);
  std::vector<SimAgentSpec> out(agents_.begin(), agents_.begin() + static_cast<long>(agents));
  for (auto& a : out) {
    if (!queue_runs) continue;
    a.run_id = make_uuid_v4();
    store::QueuedRun run;
    run.run_id = a.run_id;
    run.agent_id = a.agent_id;
    run.plan = sim_plan();
    run.plan_name = "collector-load.yaml";
    run.submitted_by = "collector_load";
    store.enqueue_run(run);
  }
  return out;
}

}  // namespace schedrig::bench
