#include "host/server/listener.h"

#include <cerrno>
#include <stdexcept>

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <boost/asio/strand.hpp>

namespace schedrig::server {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

namespace {

constexpr std::chrono::milliseconds kFirstBackoff{100};
constexpr std::chrono::milliseconds kMaxBackoff{1000};

}  // namespace

bool is_resource_exhaustion(const boost::system::error_code& ec) {
  if (ec.category() != boost::system::system_category()) return false;
  const int e = ec.value();
  return e == EMFILE || e == ENFILE || e == ENOBUFS || e == ENOMEM;
}

std::chrono::milliseconds next_backoff(std::chrono::milliseconds current) {
  if (current.count() <= 0) return kFirstBackoff;
  return std::min(current * 2, kMaxBackoff);
}

Listener::Listener(asio::io_context& ioc, ServerOptions options)
    : ioc_(ioc),
      context_(std::make_shared<ServerContext>(std::move(options))),
      tracker_(std::make_shared<ConnectionTracker>(context_->options.max_connections)),
      acceptor_(asio::make_strand(ioc)),
      retry_(acceptor_.get_executor()) {
  if (context_->options.tokens == nullptr) {
    throw std::invalid_argument("server: ServerOptions::tokens is required");
  }
  const tcp::endpoint& endpoint = context_->options.endpoint;
  boost::system::error_code ec;
  auto fail = [&](const char* step) {
    throw ServerError(
        ErrorKind::kUnreachable,
        fmt::format("cannot listen on {}: {}: {}", endpoint_text(endpoint), step, ec.message()));
  };
  if (acceptor_.open(endpoint.protocol(), ec)) fail("open");
  if (acceptor_.set_option(asio::socket_base::reuse_address(true), ec)) fail("SO_REUSEADDR");
  if (acceptor_.bind(endpoint, ec)) fail("bind");
  if (acceptor_.listen(asio::socket_base::max_listen_connections, ec)) fail("listen");
}

tcp::endpoint Listener::local_endpoint() const { return acceptor_.local_endpoint(); }

void Listener::start() {
  asio::dispatch(acceptor_.get_executor(), [this] { do_accept(); });
}

void Listener::do_accept() {
  if (!acceptor_.is_open()) return;
  acceptor_.async_accept(asio::make_strand(ioc_),
                         [this](boost::system::error_code ec, tcp::socket socket) {
                           on_accept(ec, std::move(socket));
                         });
}

void Listener::on_accept(boost::system::error_code ec, tcp::socket socket) {
  if (ec == asio::error::operation_aborted || !acceptor_.is_open()) return;
  if (ec) return on_accept_error(ec);
  backoff_ = std::chrono::milliseconds(0);
  start_connection(std::move(socket));
  do_accept();
}

void Listener::on_accept_error(boost::system::error_code ec) {
  if (!is_resource_exhaustion(ec)) {
    // One connection's trouble (ECONNABORTED, EPERM from a firewall): next.
    accept_errors_.warn(fmt::format("accept: {}", ec.message()));
    return do_accept();
  }
  backoff_ = next_backoff(backoff_);
  accept_errors_.warn(fmt::format("accept: {}: waiting {} ms before accepting again", ec.message(),
                                  backoff_.count()));
  retry_.expires_after(backoff_);
  retry_.async_wait([this](boost::system::error_code wait_ec) {
    if (!wait_ec) do_accept();
  });
}

void Listener::start_connection(tcp::socket socket) {
  std::optional<ConnectionSlot> slot = tracker_->try_open();
  if (!slot) {
    over_limit_.warn(fmt::format("{}: refused: {} connections open (--max-connections)",
                                 peer_name(socket), context_->options.max_connections));
    boost::system::error_code ignored;
    socket.close(ignored);
    return;
  }
  if (context_->options.tls) {
    std::make_shared<Connection<TlsStream>>(std::move(socket), context_, std::move(*slot))->run();
  } else {
    std::make_shared<Connection<PlainStream>>(std::move(socket), context_, std::move(*slot))->run();
  }
}

void Listener::stop() {
  asio::post(acceptor_.get_executor(), [this] {
    boost::system::error_code ignored;
    acceptor_.close(ignored);
    retry_.cancel();
  });
  tracker_->stop_all();
}

std::size_t Listener::open_connections() const { return tracker_->open(); }

}  // namespace schedrig::server
