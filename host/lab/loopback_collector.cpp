#include "host/lab/loopback_collector.h"

#include <fmt/format.h>

#include "common/ids.h"

namespace schedrig::lab {

namespace {

auth::TokenSet one_agent(const std::string& agent_id, const std::string& token) {
  auth::TokenSet tokens;
  tokens.add(auth::Role::kAgent, agent_id, token);
  return tokens;
}

server::ServerOptions loopback_options(const auth::TokenSet& tokens,
                                       server::AgentEndpoint& agents) {
  server::ServerOptions o;
  o.endpoint = {boost::asio::ip::make_address("127.0.0.1"), 0};
  o.tokens = &tokens;
  o.agents = &agents;
  return o;
}

// The lab's one token binds its one agent, and the lab gives that agent its
// run itself (not through the queue): run envelopes are not checked against
// the queue (store::IngestPolicy).
collector::CollectorOptions lab_collector_options() {
  collector::CollectorOptions o;
  o.writer.require_assigned_run = false;
  return o;
}

}  // namespace

LoopbackCollector::LoopbackCollector(store::Store& store, collector::CollectorEvents& events,
                                     const std::string& agent_id, const std::string& agent_token)
    : tokens_(one_agent(agent_id, agent_token)),
      collector_(store, events, lab_collector_options()),
      listener_(ioc_, loopback_options(tokens_, collector_)) {
  listener_.start();
  thread_ = std::thread([this] { ioc_.run(); });
}

LoopbackCollector::~LoopbackCollector() {
  ioc_.stop();
  thread_.join();
}

void LoopbackCollector::close_sessions() { listener_.stop(); }

std::string LoopbackCollector::url() const {
  return fmt::format("ws://127.0.0.1:{}/agent", listener_.local_endpoint().port());
}

std::string lab_agent_id() { return host_name(); }

}  // namespace schedrig::lab
