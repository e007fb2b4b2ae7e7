// The lab's collector: listening on 127.0.0.1 (ephemeral port) with its own
// I/O thread, storing into the lab's store.
#pragma once

#include <string>
#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>

#include "host/collector/collector.h"

namespace schedrig::lab {

// Collector on loopback with its I/O thread; stopped on destruction.
// Throws CollectorError when it cannot listen.
class LoopbackCollector {
 public:
  LoopbackCollector(store::Store& store, collector::CollectorEvents& events);
  ~LoopbackCollector();
  LoopbackCollector(const LoopbackCollector&) = delete;
  LoopbackCollector& operator=(const LoopbackCollector&) = delete;

  // Stops accepting and sends every session a normal close.
  void close_sessions();
  // "ws://127.0.0.1:PORT/agent", the URL the agent dials.
  std::string url() const;

 private:
  boost::asio::io_context ioc_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_{
      ioc_.get_executor()};
  collector::Collector collector_;
  std::thread thread_;
};

}  // namespace schedrig::lab
