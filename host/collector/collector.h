// The host's collector: a TCP listener whose accepted connections become
// AgentSessions (WebSocket on /agent), all storing into one Store.
// Runs on a caller-owned io_context; run it on any number of threads.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "common/error.h"
#include "host/collector/agent_session.h"
#include "host/collector/events.h"
#include "host/store/store.h"

namespace schedrig::collector {

// The listen address cannot be used. what() names it and the reason; the
// kind is kUsage for text that is no address, kUnreachable for an address
// that cannot be bound.
class CollectorError : public Error {
 public:
  CollectorError(ErrorKind kind, const std::string& message) : Error(kind, message) {}
};

// Parses "ADDR:PORT" ("127.0.0.1:7878", "[::1]:0", "0.0.0.0:7878").
// Throws CollectorError naming the text.
boost::asio::ip::tcp::endpoint parse_listen_address(const std::string& text);

class Collector {
 public:
  // Binds and listens at once (port 0 = ephemeral). Throws CollectorError.
  Collector(boost::asio::io_context& ioc, const boost::asio::ip::tcp::endpoint& endpoint,
            store::Store& store, CollectorEvents& events);

  // The bound address (with the real port when 0 was asked for).
  boost::asio::ip::tcp::endpoint local_endpoint() const;
  // Starts accepting.
  void start();
  // Stops accepting and closes every open session normally (1000).
  void stop();
  // Sessions still open (a close sent by stop() completes asynchronously).
  std::size_t open_sessions();

 private:
  void do_accept();

  boost::asio::io_context& ioc_;
  boost::asio::ip::tcp::acceptor acceptor_;
  store::Store& store_;
  CollectorEvents& events_;
  std::mutex mu_;
  std::vector<std::weak_ptr<AgentSession>> sessions_;
};

}  // namespace schedrig::collector
