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

server::ServerOptions loopback_options(const auth::TokenSet& tokens, server::AgentEndpoint& agents,
                                       server::ApiHandler& api) {
  server::ServerOptions o;
  o.endpoint = {boost::asio::ip::make_address("127.0.0.1"), 0};
  o.tokens = &tokens;
  o.agents = &agents;
  o.api = &api;  // no operator token exists: every API request is refused
  return o;
}

control::ControlOptions lab_control() {
  control::ControlOptions o;
  o.shared_store = true;
  return o;
}

}  // namespace

LoopbackCollector::LoopbackCollector(store::Store& store, collector::CollectorEvents& observer,
                                     const std::string& agent_id, const std::string& agent_token)
    : tokens_(one_agent(agent_id, agent_token)),
      control_(store, ioc_.get_executor(), lab_control()),
      events_({&control_, &observer}),
      collector_(store, events_),
      listener_(ioc_, loopback_options(tokens_, collector_, control_)) {
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
