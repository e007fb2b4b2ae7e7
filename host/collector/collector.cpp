#include "host/collector/collector.h"

namespace schedrig::collector {

Collector::Collector(store::Store& store, CollectorEvents& events, CollectorOptions options)
    : writer_(store, options.writer),
      services_(std::make_shared<SessionServices>(SessionServices{
          events, writer_, std::make_shared<SessionRegistry>(options.duplicate_probe_timeout)})) {}

Collector::~Collector() { writer_.stop(); }

template <class Stream>
void Collector::start_session(Stream stream, server::AgentUpgrade upgrade) {
  std::make_shared<AgentSession<Stream>>(std::move(stream), std::move(upgrade), services_)->run();
}

void Collector::accept(server::PlainStream stream, server::AgentUpgrade upgrade) {
  start_session(std::move(stream), std::move(upgrade));
}

void Collector::accept(server::TlsStream stream, server::AgentUpgrade upgrade) {
  start_session(std::move(stream), std::move(upgrade));
}

}  // namespace schedrig::collector
