#include "host/server/connection.h"

#include <atomic>
#include <type_traits>

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
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
                               std::shared_ptr<const ServerContext> context, ConnectionSlot slot)
    : stream_(make_stream<Stream>(std::move(socket), *context)),
      context_(std::move(context)),
      slot_(std::move(slot)),
      peer_(peer_name(beast::get_lowest_layer(stream_).socket())) {}

template <class Stream>
void Connection<Stream>::run() {
  slot_.attach(this->shared_from_this());
  asio::dispatch(stream_.get_executor(), [self = this->shared_from_this()] {
    if constexpr (kIsTls<Stream>) {
      beast::get_lowest_layer(self->stream_)
          .expires_after(self->context_->options.tls_handshake_timeout);
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
  parser_->body_limit(o.body_limit);
  beast::get_lowest_layer(stream_).expires_after(o.read_timeout);
  http::async_read(
      stream_, buffer_, *parser_,
      [self = this->shared_from_this()](beast::error_code ec, std::size_t) { self->on_read(ec); });
}

template <class Stream>
void Connection<Stream>::on_read(beast::error_code ec) {
  if (ec) return on_read_error(ec);
  handle(parser_->release());
}

template <class Stream>
void Connection<Stream>::on_read_error(beast::error_code ec) {
  if (stopped_) return;
  if (ec == http::error::header_limit || ec == http::error::body_limit) {
    const bool header = ec == http::error::header_limit;
    spdlog::info("{}: request over the {} limit ({} bytes): refused", peer_,
                 header ? "header" : "body",
                 header ? context_->options.header_limit : context_->options.body_limit);
    return respond(error_response(
        parser_->get(),
        header ? http::status::request_header_fields_too_large : http::status::payload_too_large,
        header ? fmt::format("request headers over {} bytes", context_->options.header_limit)
               : fmt::format("request body over {} bytes", context_->options.body_limit),
        false));
  }
  if (ec == http::error::end_of_stream || ec == asio::error::operation_aborted) {
    return do_shutdown();
  }
  if (ec.category() == http::make_error_code(http::error::end_of_stream).category() &&
      ec != http::error::partial_message) {
    spdlog::debug("{}: bad HTTP request: {}", peer_, ec.message());
    return respond(error_response(parser_->get(), http::status::bad_request,
                                  "bad HTTP request: " + ec.message(), false));
  }
  spdlog::debug("{}: read: {}", peer_, ec.message());  // timeout, reset
  beast::get_lowest_layer(stream_).close();
}

template <class Stream>
void Connection<Stream>::handle(Request request) {
  const Route route = route_of(to_std(request.target()));
  const bool served = route == Route::kAgent ? context_->options.agents != nullptr
                                             : context_->options.api != nullptr;
  if (route == Route::kNotFound || !served) {
    spdlog::debug("{}: {} {}: 404", peer_, printable(to_std(request.method_string())),
                  printable(to_std(request.target())));
    return respond(error_response(
        request, http::status::not_found,
        "not found: agents use a WebSocket upgrade on /agent, the API is under /api/v1/", true));
  }
  Authorization auth = authorize(request, *context_->options.tokens, role_for(route));
  if (!auth.principal) return refuse(request, auth);
  if (route == Route::kAgent) return serve_agent(std::move(request), std::move(*auth.principal));
  serve_api(std::move(request), std::move(*auth.principal));
}

template <class Stream>
void Connection<Stream>::refuse(const Request& request, const Authorization& denied) {
  context_->refusals.warn(fmt::format(
      "{}: {} {} refused with {}: {}", peer_, printable(to_std(request.method_string())),
      printable(to_std(request.target())), static_cast<unsigned>(denied.status), denied.reason));
  respond(error_response(
      request, denied.status,
      denied.status == http::status::forbidden
          ? std::string("this token's role may not use ") +
                (route_of(to_std(request.target())) == Route::kAgent ? "/agent" : "/api/v1/")
          : "a valid Bearer token is required",
      true));
}

template <class Stream>
void Connection<Stream>::serve_agent(Request request, auth::Principal principal) {
  if (!beast::websocket::is_upgrade(request)) {
    return respond(error_response(request, http::status::upgrade_required,
                                  "agents connect with a WebSocket upgrade on /agent", false));
  }
  beast::get_lowest_layer(stream_).expires_never();
  handed_off_ = true;
  AgentUpgrade upgrade{std::move(request), std::move(principal), peer_, std::move(slot_),
                       context_->options.timing};
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
  beast::get_lowest_layer(stream_).socket().shutdown(asio::ip::tcp::socket::shutdown_send, ignored);
  beast::get_lowest_layer(stream_).close();
}

template class Connection<PlainStream>;
template class Connection<TlsStream>;

}  // namespace schedrig::server
