#include "agent/link/ws_connection.h"

#include <fcntl.h>

#include <deque>
#include <optional>
#include <thread>
#include <type_traits>

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include "common/envelope_codec.h"
#include "common/printable.h"
#include "common/tls/scheme_hint.h"
#include "common/tls/server_check.h"
#include "common/tls/tls_context.h"
#include "common/wire_names.h"

namespace schedrig::link {
namespace {

// What the upgrade request carries besides the path.
struct UpgradeHeaders {
  std::string token;                           // "Authorization: Bearer TOKEN"; "" = none
  std::optional<std::uint64_t> spool_backlog;  // kSpoolBacklogHeader; none = not sent
};

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using v1::Envelope;

using PlainWs = websocket::stream<beast::tcp_stream>;
using TlsWs = websocket::stream<beast::ssl_stream<beast::tcp_stream>>;

// How the host ended a link that ended with `closed` (a close frame came) and `code`.
LinkEnd link_end(bool closed, std::uint16_t code) {
  if (!closed) return LinkEnd::kLost;
  if (code == websocket::close_code::normal) return LinkEnd::kClean;
  return code == websocket::close_code::policy_error ? LinkEnd::kRefused : LinkEnd::kLost;
}

// A 401 or 403 on the upgrade: the host was reached and refused the token.
bool token_refused(const websocket::response_type& res) {
  return res.result_int() == 401 || res.result_int() == 403;
}

// The host was reached and its answer says the agent is configured wrong (a
// refused token, or a 404: no WebSocket at the URL's path): exit 2, not an
// unreachable host.
bool configuration_refused(const websocket::response_type& res) {
  return token_refused(res) || res.result_int() == 404;
}

// Why the upgrade failed: the host's refusal of the token, a 404 for the
// path, another HTTP answer, or Beast's reason (no answer read: status 0).
std::string upgrade_failure(const websocket::response_type& res, const std::string& path,
                            beast::error_code ec) {
  const unsigned status = res.result_int();
  const auto reason = http::obsolete_reason(res.result());
  if (token_refused(res))
    return fmt::format("refused the agent's token ({} {})", status, std::string(reason));
  if (status == 404)
    return fmt::format(
        "has no WebSocket endpoint at {} (HTTP 404 Not Found): check the URL's path "
        "(agents connect to /agent)",
        printable(path));
  if (status != 0 && status != 101)
    return fmt::format("WebSocket handshake: HTTP {} {}", status, std::string(reason));
  return "WebSocket handshake: " + ec.message();
}

template <class Ws>
class WsConnection final : public Connection {
 public:
  static constexpr bool kTls = std::is_same_v<Ws, TlsWs>;

  WsConnection(LinkState& state, std::shared_ptr<ssl::context> tls,
               std::chrono::milliseconds silence_limit)
      : state_(state), tls_(std::move(tls)), silence_limit_(silence_limit) {
    if constexpr (kTls) {
      ws_.emplace(asio::make_strand(ioc_), *tls_);
    } else {
      ws_.emplace(asio::make_strand(ioc_));
    }
    silence_timer_.emplace(ws_->get_executor());
  }

  ~WsConnection() override { close(); }

  // Resolve, TCP connect, TLS and WebSocket handshakes run asynchronously on
  // the link's io_context for at most `timeout` (Beast's timeouts apply to
  // asynchronous operations only), so a peer that accepts TCP but never
  // answers cannot hang the agent.
  void connect(const WsUrl& u, const UpgradeHeaders& headers, std::chrono::milliseconds timeout) {
    url_ = u;
    configure(headers);
    resolver_.async_resolve(u.host, u.port,
                            [this](beast::error_code ec, tcp::resolver::results_type eps) {
                              if (ec) return end("resolve: " + ec.message());
                              on_resolved(eps);
                            });
    ioc_.run_for(timeout);
    if (!failure_) give_up(timeout);
    if (!kTls && upgrade_unanswered_ && tls::speaks_tls(u.host, u.port))
      failure_ = tls::speaks_tls_hint(fmt::format("wss://{}{}", host_header(u), u.path));
    if (configuration_refused(response_)) {
      throw LinkError(ErrorKind::kUsage, fmt::format("host at {} {}", state_.url(), *failure_));
    }
    if (!failure_->empty())
      throw LinkError(ErrorKind::kUnreachable,
                      fmt::format("cannot reach {}: {}", state_.url(), *failure_));
    start();
  }

  void write(std::string bytes) override {
    asio::post(ws_->get_executor(), [this, b = std::move(bytes)]() mutable {
      write_queue_.push_back(std::move(b));
      if (write_queue_.size() == 1) do_write();
    });
  }

  void close() override {
    if (!io_thread_.joinable()) return;
    asio::post(ws_->get_executor(), [this] { do_close(); });
    io_thread_.join();
  }

 private:
  void configure(const UpgradeHeaders& headers) {
    ws_->binary(true);
    ws_->read_message_max(kMaxEnvelopeBytes);
    ws_->set_option(websocket::stream_base::decorator([headers](websocket::request_type& req) {
      req.set(http::field::user_agent, "schedrig-agent/" SCHEDRIG_VERSION);
      if (!headers.token.empty()) req.set(http::field::authorization, "Bearer " + headers.token);
      if (headers.spool_backlog) {
        req.set(kSpoolBacklogHeader, std::to_string(*headers.spool_backlog));
      }
    }));
  }

  void on_resolved(const tcp::resolver::results_type& eps) {
    beast::get_lowest_layer(*ws_).async_connect(eps,
                                                [this](beast::error_code ec, const tcp::endpoint&) {
                                                  if (ec) return end(ec.message());
                                                  close_on_exec();
                                                  secure();
                                                });
  }

  // Asio opens sockets without FD_CLOEXEC: without it every workload the
  // runner execs (schedrig-fork-creator) inherits the link, and keeps the
  // TCP connection open after the agent dies, so the host never sees it go.
  void close_on_exec() {
    const int fd = beast::get_lowest_layer(*ws_).socket().native_handle();
    ::fcntl(fd, F_SETFD, ::fcntl(fd, F_GETFD) | FD_CLOEXEC);
  }

  // wss: SNI, then the handshake verifying the chain and that the
  // certificate names the URL's host (tls/server_check.h).
  void secure() {
    if constexpr (kTls) {
      auto& tls = ws_->next_layer();
      tls::check_server(tls, url_.host, &verify_failure_);
      tls.async_handshake(ssl::stream_base::client, [this](beast::error_code ec) {
        if (ec) return end(tls_failure(ec));
        upgrade();
      });
    } else {
      upgrade();
    }
  }

  // A handshake the server answered with plain HTTP (or not at all) gets the
  // CLI's hint (common/tls/scheme_hint.h): use ws://.
  std::string tls_failure(beast::error_code ec) const {
    if (verify_failure_.empty() && tls::not_tls_answer(ec))
      return "TLS handshake: " +
             tls::not_tls_hint(fmt::format("ws://{}{}", host_header(url_), url_.path));
    if (verify_failure_.empty()) return "TLS handshake: " + ec.message();
    return "TLS handshake: certificate verify failed: " + verify_failure_;
  }

  // response_ starts at status 0: Beast leaves it as it was when no answer
  // could be read (its default, 200, once read as "HTTP 200 OK").
  void upgrade() {
    response_.result(0u);
    ws_->async_handshake(response_, host_header(url_), url_.path, [this](beast::error_code ec) {
      upgrade_unanswered_ = ec && response_.result_int() == 0;
      end(ec ? upgrade_failure(response_, url_.path, ec) : "");
    });
  }

  void end(std::string failure) { failure_.emplace(std::move(failure)); }

  // The deadline passed: cancel what is pending, let it finish, and throw.
  [[noreturn]] void give_up(std::chrono::milliseconds timeout) {
    beast::error_code ignored;
    resolver_.cancel();
    beast::get_lowest_layer(*ws_).socket().close(ignored);
    ioc_.restart();
    ioc_.run();
    throw LinkError(ErrorKind::kUnreachable,
                    fmt::format("cannot reach {}: no WebSocket handshake within {:.3g} s",
                                state_.url(), static_cast<double>(timeout.count()) / 1000.0));
  }

  // From here Beast's own timer bounds the closing handshake, so a host
  // that never answers our close frame cannot hang the agent's exit; an
  // idle link (waiting for the next plan) never times out.
  void start() {
    beast::get_lowest_layer(*ws_).expires_never();
    websocket::stream_base::timeout t{};
    t.handshake_timeout = kCloseTimeout;
    t.idle_timeout = websocket::stream_base::none();
    t.keep_alive_pings = false;
    ws_->set_option(t);
    ws_->control_callback([this](websocket::frame_type, beast::string_view) { heard(); });
    ioc_.restart();
    heard();
    watch_silence();
    do_read();
    io_thread_ = std::thread([this] { ioc_.run(); });
  }

  void do_read() {
    ws_->async_read(buffer_, [this](beast::error_code ec, std::size_t) { on_read(ec); });
  }

  // Something came from the host (a message, ping, pong or close frame).
  void heard() { last_heard_ = std::chrono::steady_clock::now(); }

  // Beast's idle timeout without keep-alive pings fires however busy the
  // link is (Boost 1.74), so the agent keeps its own: wake at the silence
  // limit after the last thing heard; still silent -> lost.
  void watch_silence() {
    silence_timer_->expires_at(last_heard_ + silence_limit_);
    silence_timer_->async_wait([this](beast::error_code ec) {
      if (ec || closing_) return;
      if (std::chrono::steady_clock::now() < last_heard_ + silence_limit_) return watch_silence();
      state_.mark_closed(fmt::format("nothing from the host for {:.3g} s",
                                     static_cast<double>(silence_limit_.count()) / 1000.0),
                         LinkEnd::kLost);
      beast::error_code ignored;
      beast::get_lowest_layer(*ws_).socket().close(ignored);
    });
  }

  void on_read(beast::error_code ec) {
    if (ec) return fail("read", ec);
    heard();
    std::string bytes = beast::buffers_to_string(buffer_.data());
    buffer_.consume(buffer_.size());
    handle(bytes);
    do_read();
  }

  void handle(const std::string& bytes) {
    DecodeResult r = decode_envelope(bytes);
    if (!r.envelope) {
      spdlog::warn("host sent an undecodable message: {}", r.error);
      answer_error(r.code, "agent cannot use the message: " + r.error);
      return;
    }
    state_.take(std::move(*r.envelope));
  }

  // Tells the host what was wrong with its message (docs/architecture.md "Wire
  // protocol": bad bodies get an Error back; the connection carries on).
  void answer_error(v1::ErrorCode code, const std::string& message) {
    Envelope env;
    env.mutable_error()->set_code(code);
    env.mutable_error()->set_message(message);
    state_.answer(std::move(env), [this](std::string bytes) { write(std::move(bytes)); });
  }

  void do_write() {
    ws_->async_write(asio::buffer(write_queue_.front()),
                     [this](beast::error_code ec, std::size_t) { on_write(ec); });
  }

  void on_write(beast::error_code ec) {
    if (ec) return fail("write", ec);
    write_queue_.pop_front();
    if (!write_queue_.empty()) do_write();
  }

  void do_close() {
    closing_ = true;
    silence_timer_->cancel();
    if (!ws_->is_open()) return;
    ws_->async_close(websocket::close_code::normal, [this](beast::error_code) {
      beast::error_code ignored;
      beast::get_lowest_layer(*ws_).socket().close(ignored);
    });
  }

  // The link ended: how, unless the agent closed it (then a pending read
  // may end with "operation canceled" as the TLS stream shuts down).
  void fail(const char* what, beast::error_code ec) {
    if (closing_) return state_.mark_closed("closed by the agent", LinkEnd::kClean);
    const bool closed = ec == websocket::error::closed;
    const websocket::close_reason& why = ws_->reason();
    std::string reason = fmt::format("{}: {}", what, ec.message());
    if (closed) {
      const std::string text(why.reason.data(), why.reason.size());
      reason = fmt::format("host closed the connection ({}{}{})", why.code, text.empty() ? "" : " ",
                           printable(text));
    }
    state_.mark_closed(reason, link_end(closed, why.code));
    silence_timer_->cancel();
    beast::error_code ignored;
    beast::get_lowest_layer(*ws_).socket().close(ignored);
  }

  LinkState& state_;
  std::shared_ptr<ssl::context> tls_;  // null for ws://; outlives the stream
  asio::io_context ioc_;
  tcp::resolver resolver_{ioc_};
  std::optional<Ws> ws_;
  WsUrl url_;
  websocket::response_type response_;   // the upgrade's answer
  std::optional<std::string> failure_;  // set when the connect chain ends; "" = connected
  std::string verify_failure_;          // why the host's certificate was refused
  bool upgrade_unanswered_ = false;     // the upgrade failed with no HTTP answer read
  beast::flat_buffer buffer_;
  std::deque<std::string> write_queue_;  // touched only on the strand
  bool closing_ = false;                 // the agent sent its close; strand only
  std::chrono::milliseconds silence_limit_;
  std::optional<asio::steady_timer> silence_timer_;   // on the strand
  std::chrono::steady_clock::time_point last_heard_;  // strand only
  std::thread io_thread_;
};

std::shared_ptr<ssl::context> client_context(const std::string& ca_file) {
  try {
    return tls::client_tls_context(ca_file);
  } catch (const schedrig::Error& e) {
    throw LinkError(e.kind(), e.what());
  }
}

template <class Ws>
std::unique_ptr<Connection> dial(LinkState& state, std::shared_ptr<ssl::context> tls,
                                 const WsUrl& url, const UpgradeHeaders& headers,
                                 std::chrono::milliseconds timeout,
                                 std::chrono::milliseconds silence_limit) {
  auto c = std::make_unique<WsConnection<Ws>>(state, std::move(tls), silence_limit);
  c->connect(url, headers, timeout);
  return c;
}

}  // namespace

std::unique_ptr<Connection> open_connection(LinkState& state, const WsUrl& url,
                                            const LinkSecurity& security,
                                            std::chrono::milliseconds timeout,
                                            std::chrono::milliseconds silence_limit,
                                            std::optional<std::uint64_t> spool_backlog) {
  const UpgradeHeaders headers{security.token, spool_backlog};
  if (!url.tls) return dial<PlainWs>(state, nullptr, url, headers, timeout, silence_limit);
  return dial<TlsWs>(state, client_context(security.ca_file), url, headers, timeout, silence_limit);
}

}  // namespace schedrig::link
