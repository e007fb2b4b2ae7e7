#include "host/lab/loopback_collector.h"

#include <fmt/format.h>

namespace schedrig::lab {

LoopbackCollector::LoopbackCollector(store::Store& store, collector::CollectorEvents& events)
    : collector_(ioc_, {boost::asio::ip::make_address("127.0.0.1"), 0}, store, events) {
  collector_.start();
  thread_ = std::thread([this] { ioc_.run(); });
}

LoopbackCollector::~LoopbackCollector() {
  ioc_.stop();
  thread_.join();
}

void LoopbackCollector::close_sessions() { collector_.stop(); }

std::string LoopbackCollector::url() const {
  return fmt::format("ws://127.0.0.1:{}/agent", collector_.local_endpoint().port());
}

}  // namespace schedrig::lab
