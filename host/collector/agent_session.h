// One agent connection: HTTP upgrade on /agent, then a read loop and one
// write queue on the session's own strand (the Boost.Beast
// websocket_server_async example's shape). Each binary message is decoded,
// stored raw, its tables derived, then acked; bad messages get an Error
// envelope back and the session carries on.
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <string>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include "host/collector/agent_channel.h"
#include "host/collector/events.h"
#include "host/store/store.h"
#include "schedrig/v1/envelope.pb.h"

namespace schedrig::collector {

class AgentSession : public AgentChannel, public std::enable_shared_from_this<AgentSession> {
 public:
  AgentSession(boost::asio::ip::tcp::socket&& socket, store::Store& store, CollectorEvents& events);

  // Starts reading the HTTP upgrade request.
  void run();
  // Queues a host->agent envelope (protocol_version and agent_id are
  // stamped here). Thread-safe.
  void send(schedrig::v1::Envelope env) override;
  // Sends a close frame after every queued envelope: normal (1000), or
  // internal error (1011) once an envelope could not be stored after
  // kStoreAttempts tries (nothing after it is acked). Thread-safe.
  void close() override;

  const std::string& peer() const override { return peer_; }
  const std::string& agent_id() const override { return agent_id_; }
  const std::string& instance_id() const override { return instance_id_; }

 private:
  void do_read_request();
  void on_read_request(boost::beast::error_code ec);
  void on_accept(boost::beast::error_code ec);
  void do_read();
  void on_read(boost::beast::error_code ec);
  void handle_message(const std::string& bytes);
  void store_and_ack(const schedrig::v1::Envelope& env, const std::string& bytes);
  void reply_error(schedrig::v1::ErrorCode code, const std::string& message, std::uint64_t seq);
  void do_write();
  void on_write(boost::beast::error_code ec);
  void do_close();
  // Ends the session once: logs `reason` at `log_level` (an spdlog level
  // name, log_level_for(kind) for an error) and tells the owner.
  void finish(const std::string& reason, const char* log_level = "info");

  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
  boost::beast::flat_buffer buffer_;
  boost::beast::http::request<boost::beast::http::string_body> request_;
  std::deque<std::string> write_queue_;
  store::Store& store_;
  CollectorEvents& events_;
  std::string peer_;
  std::string agent_id_;
  std::string instance_id_;
  std::map<std::string, std::uint64_t> last_seq_;  // per instance_id
  bool finished_ = false;
  bool close_requested_ = false;  // close once the write queue drains
  bool store_failed_ = false;     // an envelope could not be stored: closing
  boost::beast::websocket::close_code close_code_ = boost::beast::websocket::close_code::normal;
  // Tries per envelope before the session gives up on the store (each try
  // waits out the store's 5 s busy timeout).
  static constexpr int kStoreAttempts = 3;
};

}  // namespace schedrig::collector
