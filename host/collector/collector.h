// The agent side of the server (docs/architecture.md "Server"): the
// AgentEndpoint that turns an authenticated upgrade on /agent into an
// AgentSession, with the one store writer and the session registry all its
// sessions share. The Listener (host/server) owns the port; the Collector
// owns what agents say.
#pragma once

#include <chrono>
#include <memory>

#include "host/collector/agent_session.h"
#include "host/collector/events.h"
#include "host/collector/session_registry.h"
#include "host/collector/store_writer.h"
#include "host/server/agent_endpoint.h"
#include "host/store/store.h"

namespace schedrig::collector {

struct CollectorOptions {
  StoreWriterOptions writer;
  // How long an agent holding an id has to answer a ping when another
  // instance says Hello with the same id.
  std::chrono::milliseconds duplicate_probe_timeout{5000};
};

class Collector : public server::AgentEndpoint {
 public:
  // `store` and `events` must outlive the collector and every session
  // (run the io_context dry, or stop it, before destroying them).
  Collector(store::Store& store, CollectorEvents& events, CollectorOptions options = {});
  // Stores what is queued and stops the writer thread.
  ~Collector() override;
  Collector(const Collector&) = delete;
  Collector& operator=(const Collector&) = delete;

  void accept(server::PlainStream stream, server::AgentUpgrade upgrade) override;
  void accept(server::TlsStream stream, server::AgentUpgrade upgrade) override;

  // From now on the server's stop closes agents with 1001 going away (they
  // reconnect: serve's shutdown) rather than 1000 (lab's end: they exit).
  void close_going_away_on_stop() { services_->going_away->store(true); }

  StoreWriter& writer() { return writer_; }
  SessionRegistry& registry() { return *services_->registry; }

 private:
  template <class Stream>
  void start_session(Stream stream, server::AgentUpgrade upgrade);

  StoreWriter writer_;
  std::shared_ptr<SessionServices> services_;
};

}  // namespace schedrig::collector
