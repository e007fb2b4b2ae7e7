#include "agent/link/host_link.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>

#include "agent/link/ws_url.h"
#include "common/envelope_codec.h"
#include "common/printable.h"

namespace schedrig::link {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using v1::Envelope;

// How long the agent waits for the host's answer to its close frame.
constexpr std::chrono::seconds kCloseTimeout{5};

class HostLink::Impl {
 public:
  explicit Impl(AgentIdentity id) : stamper_(std::move(id)), ws_(asio::make_strand(ioc_)) {}

  ~Impl() { close(); }

  // Resolve, TCP connect and WebSocket handshake run asynchronously on the
  // link's io_context for at most `timeout` (Beast's timeouts apply to
  // asynchronous operations only), so a peer that accepts TCP but never
  // answers the upgrade cannot hang the agent.
  void connect(const std::string& url, std::chrono::milliseconds timeout) {
    url_ = url;
    WsUrl u;
    try {
      u = parse_ws_url(url);
    } catch (const std::invalid_argument& e) {
      throw LinkError(ErrorKind::kUsage, e.what());
    }
    ws_.binary(true);
    ws_.read_message_max(kMaxEnvelopeBytes);
    ws_.set_option(websocket::stream_base::decorator([](websocket::request_type& req) {
      req.set(beast::http::field::user_agent, "schedrig-agent/" SCHEDRIG_VERSION);
    }));
    std::optional<std::string> failure;  // set when the chain ends
    tcp::resolver resolver(ioc_);
    resolver.async_resolve(
        u.host, u.port, [&](beast::error_code ec, tcp::resolver::results_type eps) {
          if (ec) return failure.emplace("resolve: " + ec.message()), void();
          beast::get_lowest_layer(ws_).async_connect(
              eps, [&](beast::error_code ec2, const tcp::endpoint&) {
                if (ec2) return failure.emplace(ec2.message()), void();
                ws_.async_handshake(u.host + ":" + u.port, u.path, [&](beast::error_code ec3) {
                  failure.emplace(ec3 ? "WebSocket handshake: " + ec3.message() : "");
                });
              });
        });
    ioc_.run_for(timeout);
    if (!failure) {
      beast::error_code ignored;
      resolver.cancel();
      beast::get_lowest_layer(ws_).socket().close(ignored);
      ioc_.restart();
      ioc_.run();  // let the cancelled operations finish
      throw LinkError(ErrorKind::kUnreachable,
                      fmt::format("cannot reach {}: no WebSocket handshake within {:.3g} s", url,
                                  static_cast<double>(timeout.count()) / 1000.0));
    }
    if (!failure->empty())
      throw LinkError(ErrorKind::kUnreachable, fmt::format("cannot reach {}: {}", url, *failure));
    // From here Beast's own timer bounds the closing handshake, so a host
    // that never answers our close frame cannot hang the agent's exit; an
    // idle link (waiting for the next plan) never times out.
    beast::get_lowest_layer(ws_).expires_never();
    websocket::stream_base::timeout t{};
    t.handshake_timeout = kCloseTimeout;
    t.idle_timeout = websocket::stream_base::none();
    t.keep_alive_pings = false;
    ws_.set_option(t);
    ioc_.restart();
    do_read();
    io_thread_ = std::thread([this] { ioc_.run(); });
  }

  std::uint64_t send(Envelope env) {
    std::uint64_t seq;
    std::string bytes;
    {
      std::lock_guard lock(mu_);
      if (closed_)
        throw LinkError(ErrorKind::kUnreachable,
                        fmt::format("link to {} is closed: {}", url_, close_reason_));
      seq = stamper_.stamp(env);
      bytes = encode_envelope(env);
    }
    asio::post(ws_.get_executor(), [this, b = std::move(bytes)]() mutable {
      write_queue_.push_back(std::move(b));
      if (write_queue_.size() == 1) do_write();
    });
    return seq;
  }

  std::optional<Envelope> next_command(std::chrono::milliseconds timeout) {
    std::unique_lock lock(mu_);
    cv_.wait_for(lock, timeout, [&] { return !commands_.empty() || closed_; });
    if (commands_.empty()) return std::nullopt;
    Envelope env = std::move(commands_.front());
    commands_.pop_front();
    return env;
  }

  bool wait_acked(std::uint64_t seq, std::chrono::milliseconds timeout) {
    std::unique_lock lock(mu_);
    return cv_.wait_for(lock, timeout, [&] { return acked_ >= seq || closed_; }) && acked_ >= seq;
  }

  std::uint64_t acked_seq() const {
    std::lock_guard lock(mu_);
    return acked_;
  }

  bool closed() const {
    std::lock_guard lock(mu_);
    return closed_;
  }

  std::string close_reason() const {
    std::lock_guard lock(mu_);
    return close_reason_;
  }

  bool closed_cleanly() const {
    std::lock_guard lock(mu_);
    return closed_ && clean_;
  }

  std::atomic<bool>& abort_flag() { return abort_; }

  void close() {
    if (io_thread_.joinable()) {
      asio::post(ws_.get_executor(), [this] { do_close(); });
      io_thread_.join();
    }
    mark_closed("closed by the agent", true);
  }

 private:
  void do_read() {
    ws_.async_read(buffer_, [this](beast::error_code ec, std::size_t) { on_read(ec); });
  }

  void on_read(beast::error_code ec) {
    if (ec) return fail("read", ec);
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
    std::lock_guard lock(mu_);
    if (r.envelope->has_ack()) {
      if (r.envelope->ack().instance_id() == stamper_.identity().instance_id) {
        acked_ = std::max<std::uint64_t>(acked_, r.envelope->ack().seq());
      }
    } else {
      if (r.envelope->has_abort()) abort_ = true;
      commands_.push_back(std::move(*r.envelope));
    }
    cv_.notify_all();
  }

  // Tells the host what was wrong with its message (docs/architecture.md "Wire
  // protocol": bad bodies get an Error back; the connection carries on).
  void answer_error(v1::ErrorCode code, const std::string& message) {
    Envelope env;
    env.mutable_error()->set_code(code);
    env.mutable_error()->set_message(message);
    try {
      send(std::move(env));
    } catch (const LinkError&) {  // closing: nothing to answer on
    }
  }

  void do_write() {
    ws_.async_write(asio::buffer(write_queue_.front()),
                    [this](beast::error_code ec, std::size_t) { on_write(ec); });
  }

  void on_write(beast::error_code ec) {
    if (ec) return fail("write", ec);
    write_queue_.pop_front();
    if (!write_queue_.empty()) do_write();
  }

  void do_close() {
    if (!ws_.is_open()) return;
    ws_.async_close(websocket::close_code::normal, [this](beast::error_code) {
      beast::error_code ignored;
      beast::get_lowest_layer(ws_).socket().close(ignored);
    });
  }

  void fail(const char* what, beast::error_code ec) {
    std::string reason;
    const bool clean =
        ec == websocket::error::closed && ws_.reason().code == websocket::close_code::normal;
    if (ec == websocket::error::closed) {
      const std::string why(ws_.reason().reason.data(), ws_.reason().reason.size());
      reason = fmt::format("host closed the connection ({}{}{})", ws_.reason().code,
                           why.empty() ? "" : " ", printable(why));
    } else {
      reason = fmt::format("{}: {}", what, ec.message());
    }
    mark_closed(reason, clean);
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().close(ignored);
  }

  void mark_closed(const std::string& reason, bool clean) {
    std::lock_guard lock(mu_);
    if (closed_) return;
    closed_ = true;
    clean_ = clean;
    close_reason_ = reason;
    abort_ = true;
    cv_.notify_all();
  }

  EnvelopeStamper stamper_;
  std::string url_;
  asio::io_context ioc_;
  websocket::stream<beast::tcp_stream> ws_;
  beast::flat_buffer buffer_;
  std::deque<std::string> write_queue_;  // touched only on the strand
  std::thread io_thread_;

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Envelope> commands_;
  std::uint64_t acked_ = 0;
  bool closed_ = false;
  bool clean_ = false;  // closed with 1000, or by close()
  std::string close_reason_;
  std::atomic<bool> abort_{false};
};

HostLink::HostLink(AgentIdentity identity) : impl_(std::make_unique<Impl>(std::move(identity))) {}
HostLink::~HostLink() = default;
void HostLink::connect(const std::string& url, std::chrono::milliseconds timeout) {
  impl_->connect(url, timeout);
}
std::uint64_t HostLink::send(Envelope env) { return impl_->send(std::move(env)); }
std::optional<Envelope> HostLink::next_command(std::chrono::milliseconds timeout) {
  return impl_->next_command(timeout);
}
bool HostLink::wait_acked(std::uint64_t seq, std::chrono::milliseconds timeout) {
  return impl_->wait_acked(seq, timeout);
}
std::uint64_t HostLink::acked_seq() const { return impl_->acked_seq(); }
bool HostLink::closed() const { return impl_->closed(); }
std::string HostLink::close_reason() const { return impl_->close_reason(); }
bool HostLink::closed_cleanly() const { return impl_->closed_cleanly(); }
std::atomic<bool>& HostLink::abort_flag() { return impl_->abort_flag(); }
void HostLink::close() { impl_->close(); }

}  // namespace schedrig::link
