#include "bench/collector_load/sim_agent.h"

#include <atomic>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "bench/collector_load/sim_envelopes.h"
#include "common/ids.h"

namespace schedrig::bench {

namespace {

AgentIdentity identity_of(const SimAgentSpec& spec) {
  return AgentIdentity{spec.agent_id, make_uuid_v4(), make_uuid_v4()};
}

constexpr std::chrono::seconds kSetupTimeout{20};

}  // namespace

SimAgent::SimAgent(SimAgentSpec spec) : spec_(std::move(spec)), link_(identity_of(spec_)) {}

void SimAgent::connect(const std::string& url, const std::string& ca_file,
                       std::chrono::milliseconds timeout) {
  link_.connect(url, timeout, link::LinkSecurity{spec_.token, ca_file});
  send(sim_hello(spec_.agent_id));
  expect_acked(send(sim_topology()), timeout);
}

void SimAgent::start_run(std::chrono::milliseconds timeout) {
  expect_acked(send(sim_run_started(spec_.run_id)), timeout);
}

void SimAgent::finish_run(std::chrono::milliseconds timeout) {
  expect_acked(send(sim_run_finished(spec_.run_id)), timeout);
}

void SimAgent::expect_acked(std::uint64_t seq, std::chrono::milliseconds timeout) {
  if (link_.wait_acked(seq, timeout)) return;
  throw std::runtime_error(fmt::format("agent {}: no ack for seq {} ({})", spec_.agent_id, seq,
                                       link_.closed() ? link_.close_reason() : "timeout"));
}

SimAgents connect_agents(const std::vector<SimAgentSpec>& specs, const std::string& url,
                         const std::string& ca_file, bool start_runs, std::size_t threads) {
  SimAgents agents(specs.size());
  std::atomic<std::size_t> next{0};
  std::mutex mu;
  std::exception_ptr failure;
  auto work = [&] {
    for (std::size_t i = next++; i < specs.size(); i = next++) {
      try {
        auto a = std::make_unique<SimAgent>(specs[i]);
        a->connect(url, ca_file, kSetupTimeout);
        if (start_runs) a->start_run(kSetupTimeout);
        agents[i] = std::move(a);
      } catch (...) {
        std::lock_guard lock(mu);
        if (!failure) failure = std::current_exception();
        next = specs.size();
      }
    }
  };
  std::vector<std::thread> pool;
  for (std::size_t t = 0; t < std::min(threads, specs.size()); ++t) pool.emplace_back(work);
  for (auto& t : pool) t.join();
  if (failure) std::rethrow_exception(failure);
  return agents;
}

}  // namespace schedrig::bench
