// A Control over a real store in a temp dir, with fake agent channels (no
// network): agents "connect" by having their Hello and Topology stored and
// the events called, as the collector would.
#pragma once

#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <boost/asio/io_context.hpp>
#include <nlohmann/json.hpp>

#include "common/envelope_codec.h"
#include "common/ids.h"
#include "host/collector/agent_channel.h"
#include "host/control/control.h"
#include "host/store/store.h"
#include "tests/support/run_command.h"

namespace schedrig::testing {

// An AgentChannel that records what the host sends.
class FakeChannel : public collector::AgentChannel {
 public:
  FakeChannel(std::string agent_id, std::string instance_id)
      : agent_id_(std::move(agent_id)), instance_id_(std::move(instance_id)) {}
  void send(v1::Envelope env) override {
    std::lock_guard lock(mu_);
    sent_.push_back(std::move(env));
  }
  void close() override { closed_ = true; }
  const std::string& peer() const override { return peer_; }
  const std::string& agent_id() const override { return agent_id_; }
  const std::string& instance_id() const override { return instance_id_; }

  std::vector<v1::Envelope> sent() const {
    std::lock_guard lock(mu_);
    return sent_;
  }
  // The run_ids of the StartRuns sent, in order.
  std::vector<std::string> started() const {
    std::vector<std::string> ids;
    for (const auto& e : sent()) {
      if (e.has_start_run()) ids.push_back(e.start_run().run_id());
    }
    return ids;
  }
  std::vector<std::string> aborted() const {
    std::vector<std::string> ids;
    for (const auto& e : sent()) {
      if (e.has_abort()) ids.push_back(e.abort().run_id());
    }
    return ids;
  }

 private:
  mutable std::mutex mu_;
  std::vector<v1::Envelope> sent_;
  bool closed_ = false;
  std::string peer_ = "127.0.0.1:40000";
  std::string agent_id_, instance_id_;
};

inline const char* kPlanYaml =
    "name: quick\n"
    "iterations: 1\n"
    "duration_s: 0.5\n"
    "labels: {tag: plan, kernel: from-plan}\n"
    "cases:\n"
    "  - workload: fork\n"
    "    params: {fork_max: 1}\n";

class ControlTest : public ::testing::Test {
 protected:
  ControlTest() { make_control(); }
  ~ControlTest() override { control_.reset(); }

  void make_control(bool shared_store = false, control::ControlOptions options = {}) {
    options.shared_store = shared_store;
    options.poll_interval = std::chrono::milliseconds(20);
    control_.reset();
    control_ = std::make_unique<control::Control>(store_, ioc_.get_executor(), options);
  }

  struct Agent {
    explicit Agent(std::string agent_id) : id(std::move(agent_id)) {}
    std::string id, instance;
    unsigned long long seq = 0;
    std::shared_ptr<FakeChannel> channel;
    v1::Envelope hello;  // its instance's Hello, sent again on each reconnect
    v1::Hello extra;     // merged into each new Hello (knobs, bisect_deny)
  };

  v1::Envelope envelope(Agent& a) {
    v1::Envelope env;
    env.set_protocol_version(kProtocolVersion);
    env.set_agent_id(a.id);
    env.set_boot_id("7d1c6a2e-0000-4000-8000-000000000001");
    env.set_instance_id(a.instance);
    env.set_seq(++a.seq);
    env.set_sent_at_ns(wall_clock_ns());
    return env;
  }

  // Stores `env` and tells the control, as the collector does.
  void deliver(const v1::Envelope& env, Agent* hello_from = nullptr) {
    store_.ingest(env, env.SerializeAsString());
    if (hello_from) control_->on_hello(hello_from->channel, env);
    control_->on_stored(env);
  }

  // A new connection of agent `id` (a new instance each time): Hello and Topology.
  Agent& connect(Agent& a) {
    a.instance = "inst-" + std::to_string(++instances_);
    a.seq = 0;
    a.channel = std::make_shared<FakeChannel>(a.id, a.instance);
    v1::Envelope hello = envelope(a);
    hello.mutable_hello()->set_hostname(a.id + ".lab");
    hello.mutable_hello()->set_kernel_release("6.19.0-rc3");
    hello.mutable_hello()->set_agent_version("0.1.0");
    hello.mutable_hello()->set_allowed_pus(4);
    hello.mutable_hello()->MergeFrom(a.extra);
    a.hello = hello;
    deliver(hello, &a);
    v1::Envelope topo = envelope(a);
    v1::Topology* t = topo.mutable_topology();
    t->set_packages(1);
    t->set_cores(4);
    t->set_pus(4);
    t->set_online_cpus("0-3");
    t->set_allowed_cpus("0-3");
    t->add_package_cpus("0-3");
    for (const char* c : {"0", "1", "2", "3"}) t->add_core_cpus(c);
    v1::NumaNode* n = t->add_numa_nodes();
    n->set_os_index(0);
    n->set_cpus("0-3");
    v1::Llc* llc = t->add_llcs();
    llc->set_cpus("0-3");
    llc->set_level(3);
    deliver(topo);
    return a;
  }

  // The same instance on a new connection: its Hello again (same seq, same
  // bytes: the store has it), no Topology; its seq goes on.
  Agent& reconnect(Agent& a) {
    a.channel = std::make_shared<FakeChannel>(a.id, a.instance);
    deliver(a.hello, &a);
    return a;
  }

  void disconnect(Agent& a, const std::string& reason) {
    control_->on_closed(*a.channel, a.id, reason);
  }

  // The agent starts `run_id` (its RunStarted, `planned` iterations).
  void start(Agent& a, const std::string& run_id, unsigned planned = 0) {
    v1::Envelope started = envelope(a);
    started.mutable_run_started()->set_run_id(run_id);
    started.mutable_run_started()->set_planned_iterations(planned);
    deliver(started);
  }

  // The agent runs `run_id` to its end with `status` and `reason`.
  void finish(Agent& a, const std::string& run_id, v1::Status status = v1::STATUS_OK,
              const std::string& reason = "") {
    start(a, run_id, 1);
    v1::Envelope done = envelope(a);
    done.mutable_run_finished()->set_run_id(run_id);
    done.mutable_run_finished()->set_status(status);
    done.mutable_run_finished()->set_reason(reason);
    deliver(done);
  }

  // A request from operator "alice".
  static server::ApiRequest request(const std::string& method, const std::string& target,
                                    const std::string& body = "") {
    server::ApiRequest r;
    r.method = method;
    r.target = target;
    r.body = body;
    r.principal.role = auth::Role::kOperator;
    r.principal.name = "alice";
    r.peer = "127.0.0.1:1";
    return r;
  }

  // One API call, answered (the io_context runs until it is).
  server::ApiResponse call(const std::string& method, const std::string& target,
                           const std::string& body = "") {
    std::optional<server::ApiResponse> response;
    control_->handle(request(method, target, body),
                     [&](server::ApiResponse a) { response = std::move(a); });
    ioc_.restart();
    while (!response && ioc_.run_one_for(std::chrono::seconds(70)) > 0) {
    }
    EXPECT_TRUE(response) << method << " " << target << " never answered";
    return response.value_or(server::ApiResponse{599, "{}", ""});
  }
  nlohmann::json call_json(const std::string& method, const std::string& target,
                           unsigned want_status, const std::string& body = "") {
    server::ApiResponse r = call(method, target, body);
    EXPECT_EQ(r.status, want_status) << method << " " << target << ": " << r.body;
    EXPECT_EQ(r.content_type, "application/json");
    return nlohmann::json::parse(r.body);
  }

  // POST runs for `agents` (or all); the run ids in order.
  std::vector<std::string> submit(const std::vector<std::string>& agents) {
    nlohmann::json body = {
        {"agents", agents}, {"plan_yaml", kPlanYaml}, {"plan_name", "quick.yaml"}};
    nlohmann::json answer = call_json("POST", "/api/v1/runs", 201, body.dump());
    std::vector<std::string> ids;
    for (const auto& r : answer["runs"]) ids.push_back(r["run_id"]);
    return ids;
  }

  std::string state_of(const std::string& run_id) {
    auto row = store_.queued_run(run_id);
    return row ? row->state : "";
  }

  TempDir dir_;
  store::Store store_{dir_.file("schedrig.db")};
  boost::asio::io_context ioc_;
  std::unique_ptr<control::Control> control_;
  int instances_ = 0;
};

}  // namespace schedrig::testing
