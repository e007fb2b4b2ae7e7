#include "host/server/connection.h"

#include <atomic>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core/string.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include "common/printable.h"
#include "host/server/listen_address.h"

namespace schedrig::server {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

namespace {

template <class Stream>
constexpr bool kIsTls = std::is_same_v<Stream, TlsStream>;

// How long a response may take to write, and a TLS close_notify to finish.
constexpr std::chrono::seconds kWriteTimeout{30};
constexpr std::chrono::seconds kShutdownTimeout{5};
// Closing: how long and how much of what the peer still sends (an unread
// body) is discarded after the half-close, so the kernel closes with a FIN
// (the peer reads the answer) rather than a reset.
constexpr std::chrono::seconds kLingerTimeout{2};
constexpr std::size_t kLingerBytes = 4 * 1024 * 1024;
constexpr std::size_t kLingerChunk = 64 * 1024;

template <class Stream>
Stream make_stream(asio::ip::tcp::socket&& socket, const ServerContext& context) {
  if constexpr (kIsTls<Stream>) {
    return Stream(beast::tcp_stream(std::move(socket)), *context.options.tls);
  } else {
    return Stream(std::move(socket));
  }
}

}  // namespace

std::string peer_name(const asio::ip::tcp::socket& socket) {
  beast::error_code ec;
  const auto ep = socket.remote_endpoint(ec);
  return ec ? "unknown peer" : endpoint_text(ep);
}

template <class Stream>
Connection<Stream>::Connection(asio::ip::tcp::socket&& socket,
                               std::shared_ptr<const ServerContext> context, ConnectionSlot slot,
                               PendingTicket pending)
    : stream_(make_stream<Stream>(std::move(socket), *context)),
      context_(std::move(context)),
      slot_(std::move(slot)),
      pending_(std::move(pending)),
      peer_(peer_name(beast::get_lowest_layer(stream_).socket())),
      auth_deadline_(std::chrono::steady_clock::now() + context_->options.auth_timeout) {}

template <class Stream>
void Connection<Stream>::run() {
  slot_.attach(this->shared_from_this());
  pending_.attach(this->shared_from_this());  // evicted while pending: stopped
  asio::dispatch(stream_.get_executor(), [self = this->shared_from_this()] {
    if constexpr (kIsTls<Stream>) {
      beast::get_lowest_layer(self->stream_).expires_at(self->auth_deadline_);
      self->stream_.async_handshake(asio::ssl::stream_base::server,
                                    [self](beast::error_code ec) { self->on_handshake(ec); });
    } else {
      self->do_read();
    }
  });
}

template <class Stream>
void Connection<Stream>::stop() {
  asio::post(stream_.get_executor(), [self = this->shared_from_this()] {
    if (self->handed_off_ || self->stopped_) return;
    self->stopped_ = true;
    beast::get_lowest_layer(self->stream_).close();
  });
}

template <class Stream>
void Connection<Stream>::on_handshake(beast::error_code ec) {
  if (ec) {
    spdlog::debug("{}: TLS handshake: {}", peer_, ec.message());
    return beast::get_lowest_layer(stream_).close();
  }
  do_read();
}

template <class Stream>
void Connection<Stream>::do_read() {
  if (stopped_) return;
  const ServerOptions& o = context_->options;
  parser_.emplace();
  parser_->header_limit(static_cast<std::uint32_t>(o.header_limit));
  // Content-Length is checked once the request is authorized (handle_header),
  // so a stranger learns nothing but 401; the limit applies to the body read.
  parser_->body_limit(std::numeric_limits<std::uint64_t>::max());
  auto& lowest = beast::get_lowest_layer(stream_);
  if (authorized_) {
    lowest.expires_after(o.keep_alive_timeout);
  } else {
    lowest.expires_at(auth_deadline_);
  }
  http::async_read_header(stream_, buffer_, *parser_,
                          [self = this->shared_from_this()](beast::error_code ec, std::size_t) {
                            self->on_header(ec);
                          });
}

template <class Stream>
void Connection<Stream>::on_header(beast::error_code ec) {
  if (ec) return on_read_error(ec);
  handle_header();
}

template <class Stream>
void Connection<Stream>::on_read_error(beast::error_code ec) {
  if (stopped_) return;
  const ServerOptions& o = context_->options;
  if (ec == http::error::header_limit) {
    spdlog::info("{}: request headers over {} bytes: refused", peer_, o.header_limit);
    return answer(http::status::request_header_fields_too_large,
                  fmt::format("request headers over {} bytes", o.header_limit), false);
  }
  if (ec == http::error::body_limit) {
    spdlog::info("{}: request body over {} bytes: refused", peer_, o.body_limit);
    return answer(http::status::payload_too_large,
                  fmt::format("request body over {} bytes", o.body_limit), false);
  }
  if (ec == http::error::end_of_stream || ec == asio::error::operation_aborted) {
    return do_shutdown();
  }
  if (ec.category() == http::make_error_code(http::error::end_of_stream).category() &&
      ec != http::error::partial_message) {
    spdlog::debug("{}: bad HTTP request: {}", peer_, ec.message());
    return answer(http::status::bad_request, "bad HTTP request: " + ec.message(), false);
  }
  if (ec == beast::error::timeout) {
    spdlog::debug("{}: no {} in time: closed", peer_,
                  authorized_ ? "request" : "authorized request header");
  } else {
    spdlog::debug("{}: read: {}", peer_, ec.message());  // reset
  }
  beast::get_lowest_layer(stream_).close();
}

template <class Stream>
void Connection<Stream>::handle_header() {
  const Request& header = parser_->get();
  const Route route = route_of(to_std(header.target()));
  const bool served = route == Route::kAgent ? context_->options.agents != nullptr
                                             : context_->options.api != nullptr;
  if (route == Route::kNotFound || !served) {
    spdlog::debug("{}: {} {}: 404", peer_, printable(to_std(header.method_string())),
                  printable(to_std(header.target())));
    return answer(http::status::not_found,
                  "not found: agents use a WebSocket upgrade on /agent, the API is under /api/v1/",
                  true);
  }
  Authorization auth = authorize(header, *context_->options.tokens, role_for(route));
  if (!auth.principal) return refuse(auth);
  authorized_ = true;
  if (route != Route::kAgent) pending_.release();  // an agent: once its Hello is accepted
  if (header.count(http::field::transfer_encoding) != 0) {
    // Chunk extensions and trailers are not counted by the body limit: no
    // chunked uploads at all (curl -d and our client send Content-Length).
    spdlog::info("{}: request with Transfer-Encoding: refused (411)", peer_);
    return answer(http::status::length_required,
                  "Transfer-Encoding is not accepted: send the body with Content-Length", false);
  }
  const std::uint64_t limit = context_->options.body_limit;
  if (parser_->content_length().value_or(0) > limit) {
    return on_read_error(http::error::body_limit);
  }
  if (parser_->is_done()) return dispatch(std::move(*auth.principal));
  read_body(std::move(*auth.principal));
}

template <class Stream>
void Connection<Stream>::read_body(auth::Principal principal) {
  if (!beast::iequals(parser_->get()[http::field::expect], "100-continue")) {
    return read_body_now(std::move(principal));
  }
  // The client waits for this before it sends the body (curl does, for a while).
  auto interim = std::make_shared<http::response<http::empty_body>>(http::status::continue_,
                                                                    parser_->get().version());
  beast::get_lowest_layer(stream_).expires_after(kWriteTimeout);
  http::async_write(stream_, *interim,
                    [self = this->shared_from_this(), interim, principal = std::move(principal)](
                        beast::error_code ec, std::size_t) mutable {
                      if (ec) return beast::get_lowest_layer(self->stream_).close();
                      self->read_body_now(std::move(principal));
                    });
}

template <class Stream>
void Connection<Stream>::read_body_now(auth::Principal principal) {
  parser_->body_limit(context_->options.body_limit);
  beast::get_lowest_layer(stream_).expires_after(context_->options.body_timeout);
  http::async_read(stream_, buffer_, *parser_,
                   [self = this->shared_from_this(), principal = std::move(principal)](
                       beast::error_code ec, std::size_t) mutable {
                     if (ec) return self->on_read_error(ec);
                     self->dispatch(std::move(principal));
                   });
}

template <class Stream>
void Connection<Stream>::dispatch(auth::Principal principal) {
  Request request = parser_->release();
  if (route_of(to_std(request.target())) == Route::kAgent) {
    return serve_agent(std::move(request), std::move(principal));
  }
  serve_api(std::move(request), std::move(principal));
}

template <class Stream>
void Connection<Stream>::refuse(const Authorization& denied) {
  const Request& header = parser_->get();
  context_->refusals.warn(fmt::format(
      "{}: {} {} refused with {}: {}", peer_, printable(to_std(header.method_string())),
      printable(to_std(header.target())), static_cast<unsigned>(denied.status), denied.reason));
  answer(denied.status,
         denied.status == http::status::forbidden
             ? std::string("this token's role may not use ") + route_name(to_std(header.target()))
             : "a valid Bearer token is required",
         true);
}

template <class Stream>
void Connection<Stream>::answer(http::status status, std::string_view text, bool keep_alive) {
  respond(error_response(parser_->get(), status, text, keep_alive && parser_->is_done()));
}

template <class Stream>
void Connection<Stream>::serve_agent(Request request, auth::Principal principal) {
  if (!beast::websocket::is_upgrade(request)) {
    return respond(error_response(request, http::status::upgrade_required,
                                  "agents connect with a WebSocket upgrade on /agent", false));
  }
  beast::get_lowest_layer(stream_).expires_never();
  handed_off_ = true;
  AgentUpgrade upgrade{std::move(request), std::move(principal),     peer_,
                       std::move(slot_),   context_->options.timing, std::move(pending_)};
  context_->options.agents->accept(std::move(stream_), std::move(upgrade));
}

template <class Stream>
void Connection<Stream>::serve_api(Request request, auth::Principal principal) {
  beast::get_lowest_layer(stream_).expires_never();  // a long poll waits for its handler
  auto shared_request = std::make_shared<Request>(std::move(request));
  ApiRequest api{std::string(shared_request->method_string()),
                 std::string(shared_request->target()), std::move(shared_request->body()),
                 std::move(principal), peer_};
  auto answered = std::make_shared<std::atomic<bool>>(false);
  auto done = [self = this->shared_from_this(), shared_request, answered](ApiResponse answer) {
    if (answered->exchange(true)) return;  // exactly once
    asio::post(self->stream_.get_executor(), [self, shared_request, answer = std::move(answer)] {
      self->respond(api_response(*shared_request, answer));
    });
  };
  try {
    context_->options.api->handle(std::move(api), done);
  } catch (const std::exception& e) {
    spdlog::error("{}: API handler: {}", peer_, e.what());
    done(ApiResponse{500, error_body("internal error"), "application/json"});
  }
}

template <class Stream>
void Connection<Stream>::respond(Response response) {
  if (stopped_) return;
  auto res = std::make_shared<Response>(std::move(response));
  beast::get_lowest_layer(stream_).expires_after(kWriteTimeout);
  http::async_write(stream_, *res,
                    [self = this->shared_from_this(), res](beast::error_code ec, std::size_t) {
                      if (ec) return beast::get_lowest_layer(self->stream_).close();
                      if (res->need_eof()) return self->do_shutdown();
                      self->do_read();
                    });
}

template <class Stream>
void Connection<Stream>::do_shutdown() {
  if constexpr (kIsTls<Stream>) {
    beast::get_lowest_layer(stream_).expires_after(kShutdownTimeout);
    stream_.async_shutdown(
        [self = this->shared_from_this()](beast::error_code) { self->on_shutdown(); });
  } else {
    on_shutdown();
  }
}

template <class Stream>
void Connection<Stream>::on_shutdown() {
  beast::error_code ignored;
  auto& lowest = beast::get_lowest_layer(stream_);
  lowest.socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
  lowest.expires_after(kLingerTimeout);
  buffer_.clear();
  linger(0);
}

template <class Stream>
void Connection<Stream>::linger(std::size_t discarded) {
  if (stopped_ || discarded >= kLingerBytes) return beast::get_lowest_layer(stream_).close();
  beast::get_lowest_layer(stream_).async_read_some(
      buffer_.prepare(kLingerChunk),
      [self = this->shared_from_this(), discarded](beast::error_code ec, std::size_t n) {
        if (ec) return beast::get_lowest_layer(self->stream_).close();  // EOF, timeout, reset
        self->linger(discarded + n);
      });
}

template class Connection<PlainStream>;
template class Connection<TlsStream>;

}  // namespace schedrig::server
