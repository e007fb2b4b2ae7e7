#include "host/collector/agent_session.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>

#include "common/envelope_codec.h"
#include "common/error.h"
#include "common/ids.h"
#include "common/printable.h"

namespace schedrig::collector {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using v1::Envelope;

AgentSession::AgentSession(asio::ip::tcp::socket&& socket, store::Store& store,
                           CollectorEvents& events)
    : ws_(std::move(socket)), store_(store), events_(events) {
  beast::error_code ec;
  auto ep = beast::get_lowest_layer(ws_).socket().remote_endpoint(ec);
  peer_ = ec ? "unknown peer" : fmt::format("{}:{}", ep.address().to_string(), ep.port());
}

void AgentSession::run() {
  asio::dispatch(ws_.get_executor(), [self = shared_from_this()] { self->do_read_request(); });
}

void AgentSession::do_read_request() {
  beast::get_lowest_layer(ws_).expires_after(std::chrono::seconds(30));
  http::async_read(beast::get_lowest_layer(ws_), buffer_, request_,
                   [self = shared_from_this()](beast::error_code ec, std::size_t) {
                     self->on_read_request(ec);
                   });
}

void AgentSession::on_read_request(beast::error_code ec) {
  if (ec) return finish(fmt::format("HTTP request: {}", ec.message()));
  if (!websocket::is_upgrade(request_) || request_.target() != "/agent") {
    spdlog::warn("{}: refused HTTP {} {} (agents connect with a WebSocket upgrade on /agent)",
                 peer_, printable(std::string(request_.method_string())),
                 printable(std::string(request_.target())));
    auto res = std::make_shared<http::response<http::string_body>>(http::status::not_found,
                                                                   request_.version());
    res->set(http::field::content_type, "text/plain");
    res->body() = "schedrig collector: agents connect with a WebSocket upgrade on /agent\n";
    res->prepare_payload();
    http::async_write(beast::get_lowest_layer(ws_), *res,
                      [self = shared_from_this(), res](beast::error_code, std::size_t) {
                        self->finish("not a WebSocket upgrade on /agent");
                      });
    return;
  }
  beast::get_lowest_layer(ws_).expires_never();
  ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
  ws_.binary(true);
  ws_.read_message_max(kMaxEnvelopeBytes);
  ws_.async_accept(request_,
                   [self = shared_from_this()](beast::error_code e) { self->on_accept(e); });
}

void AgentSession::on_accept(beast::error_code ec) {
  if (ec) return finish(fmt::format("WebSocket accept: {}", ec.message()));
  spdlog::info("{}: agent connected", peer_);
  do_read();
}

void AgentSession::do_read() {
  ws_.async_read(buffer_, [self = shared_from_this()](beast::error_code ec, std::size_t) {
    self->on_read(ec);
  });
}

void AgentSession::on_read(beast::error_code ec) {
  if (ec == websocket::error::message_too_big) {
    return finish(
        fmt::format("message over {} bytes: closed with 1009 (message too big)", kMaxEnvelopeBytes),
        log_level_for(ErrorKind::kPeerLimit));
  }
  if (ec == websocket::error::closed) return finish("agent closed the connection");
  if (ec == boost::asio::error::operation_aborted) return finish("closed by the collector");
  if (ec) return finish(fmt::format("read: {}", ec.message()));
  std::string bytes = beast::buffers_to_string(buffer_.data());
  buffer_.consume(buffer_.size());
  handle_message(bytes);
  do_read();
}

void AgentSession::handle_message(const std::string& bytes) {
  DecodeResult r = decode_envelope(bytes);
  if (!r.envelope) {
    spdlog::warn("{}: bad message ({} bytes): {}", peer_, bytes.size(), r.error);
    return reply_error(r.code, r.error, 0);
  }
  const Envelope& env = *r.envelope;
  if (env.has_ack() || env.has_start_run() || env.has_abort() || env.has_ping()) {
    spdlog::warn("{}: agent sent a host->agent message ({})", peer_, body_name(env));
    return reply_error(v1::ERROR_UNEXPECTED, body_name(env) + " is a host->agent message",
                       env.seq());
  }
  if (store_failed_) return;  // closing: nothing more is stored or acked
  if (env.agent_id().empty() || env.instance_id().empty() || env.seq() == 0) {
    spdlog::warn("{}: {} without agent_id, instance_id or seq", peer_, body_name(env));
    return reply_error(v1::ERROR_UNEXPECTED, "agent_id, instance_id and seq > 0 are required",
                       env.seq());
  }
  store_and_ack(env, bytes);
}

void AgentSession::store_and_ack(const Envelope& env, const std::string& bytes) {
  agent_id_ = env.agent_id();
  if (env.has_hello()) instance_id_ = env.instance_id();
  std::uint64_t& last = last_seq_[env.instance_id()];
  if (env.seq() <= last) {
    spdlog::debug("{}: seq {} after {} (replay)", printable(agent_id_), env.seq(), last);
  }
  store::Store::Ingest outcome;
  for (int attempt = 1;; ++attempt) {
    try {
      outcome = store_.ingest(env, bytes);
      break;
    } catch (const std::exception& e) {
      spdlog::error("{}: cannot store {} seq {} (attempt {} of {}): {}", printable(agent_id_),
                    body_name(env), env.seq(), attempt, kStoreAttempts, e.what());
      if (attempt < kStoreAttempts) continue;  // a busy store: its own timeout paced us
      // Acks are cumulative, so nothing after this seq may be acked: stop
      // taking envelopes and close, so the agent ends the run (and restores
      // its knobs) instead of streaming into a hole.
      store_failed_ = true;
      reply_error(v1::ERROR_INTERNAL, std::string("store: ") + e.what(), env.seq());
      close_code_ = websocket::close_code::internal_error;
      close();
      return;
    }
  }
  last = std::max(last, env.seq());
  // Ack before telling the owner, so a close the owner asks for follows the Ack.
  Envelope ack;
  ack.mutable_ack()->set_instance_id(env.instance_id());
  ack.mutable_ack()->set_seq(env.seq());
  send(std::move(ack));
  if (outcome == store::Store::Ingest::kStored) {
    if (env.has_hello()) events_.on_hello(shared_from_this(), env);
    events_.on_stored(env);
  }
}

void AgentSession::reply_error(v1::ErrorCode code, const std::string& message, std::uint64_t seq) {
  Envelope env;
  env.mutable_error()->set_code(code);
  env.mutable_error()->set_message(message);
  env.mutable_error()->set_in_reply_to_seq(seq);
  send(std::move(env));
}

void AgentSession::send(Envelope env) {
  env.set_protocol_version(kProtocolVersion);
  env.set_sent_at_ns(wall_clock_ns());
  asio::post(ws_.get_executor(), [self = shared_from_this(), env = std::move(env)]() mutable {
    if (self->finished_) return;
    if (!self->agent_id_.empty()) env.set_agent_id(self->agent_id_);
    self->write_queue_.push_back(encode_envelope(env));
    if (self->write_queue_.size() == 1) self->do_write();
  });
}

void AgentSession::do_write() {
  ws_.async_write(
      asio::buffer(write_queue_.front()),
      [self = shared_from_this()](beast::error_code ec, std::size_t) { self->on_write(ec); });
}

void AgentSession::on_write(beast::error_code ec) {
  if (ec) return finish(fmt::format("write: {}", ec.message()));
  write_queue_.pop_front();
  if (!write_queue_.empty()) return do_write();
  if (close_requested_) do_close();
}

void AgentSession::close() {
  asio::post(ws_.get_executor(), [self = shared_from_this()] {
    self->close_requested_ = true;
    if (self->write_queue_.empty()) self->do_close();  // else on_write closes when drained
  });
}

void AgentSession::do_close() {
  if (finished_ || !ws_.is_open()) return;
  ws_.async_close(close_code_, [self = shared_from_this()](beast::error_code) {});
}

void AgentSession::finish(const std::string& reason, const char* log_level) {
  if (finished_) return;
  finished_ = true;
  spdlog::log(spdlog::level::from_str(log_level), "{} ({}): {}", peer_,
              agent_id_.empty() ? "no agent id yet" : printable(agent_id_), printable(reason));
  events_.on_closed(*this, agent_id_, reason);
}

}  // namespace schedrig::collector
