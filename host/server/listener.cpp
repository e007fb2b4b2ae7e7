#include "host/server/listener.h"

#include <cerrno>
#include <stdexcept>

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <boost/asio/strand.hpp>

#include "host/server/peer_group.h"

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

tcp::acceptor listen_on(asio::io_context& ioc, const tcp::endpoint& endpoint) {
  tcp::acceptor acceptor(asio::make_strand(ioc));
  boost::system::error_code ec;
  auto fail = [&](const char* step) {
    const char* hint =
        ec == asio::error::address_in_use ? " (another serve or program has this port)" : "";
    throw ServerError(ErrorKind::kUnreachable,
                      fmt::format("cannot listen on {}: {}: {}{}", endpoint_text(endpoint), step,
                                  ec.message(), hint));
  };
  if (acceptor.open(endpoint.protocol(), ec)) fail("open");
  if (acceptor.set_option(asio::socket_base::reuse_address(true), ec)) fail("SO_REUSEADDR");
  if (acceptor.bind(endpoint, ec)) fail("bind");
  if (acceptor.listen(asio::socket_base::max_listen_connections, ec)) fail("listen");
  return acceptor;
}

Listener::Listener(asio::io_context& ioc, ServerOptions options)
    : Listener(ioc, options, listen_on(ioc, options.endpoint)) {}

Listener::Listener(asio::io_context& ioc, ServerOptions options, tcp::acceptor acceptor)
    : ioc_(ioc),
      context_(std::make_shared<ServerContext>(std::move(options))),
      tracker_(std::make_shared<ConnectionTracker>(context_->options.max_connections)),
      pending_(std::make_shared<PendingPeers>(context_->options.max_pending_per_peer,
                                              context_->options.max_pending)),
      acceptor_(std::move(acceptor)),
      retry_(acceptor_.get_executor()) {
  if (context_->options.tokens == nullptr) {
    throw std::invalid_argument("server: ServerOptions::tokens is required");
  }
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
  PendingTicket ticket = pending_ticket(socket);
  if (ticket.empty()) {
    boost::system::error_code ignored;
    socket.close(ignored);
    return;
  }
  if (context_->options.tls) {
    std::make_shared<Connection<TlsStream>>(std::move(socket), context_, std::move(*slot),
                                            std::move(ticket))
        ->run();
  } else {
    std::make_shared<Connection<PlainStream>>(std::move(socket), context_, std::move(*slot),
                                              std::move(ticket))
        ->run();
  }
}

PendingTicket Listener::pending_ticket(const tcp::socket& socket) {
  boost::system::error_code ec;
  const tcp::endpoint peer = socket.remote_endpoint(ec);
  const std::string group = ec ? std::string("unknown") : peer_group(peer.address());
  PendingAdmission admission = pending_->try_enter(group);
  if (admission.peer_full) {
    pending_refusals_.warn(fmt::format(
        "{}: refused: {} connections from {} not authorized yet (--max-pending-per-peer)",
        peer_name(socket), pending_->per_peer_limit(), group));
  } else if (!admission.evicted.empty()) {
    pending_evictions_.warn(
        fmt::format("{}: {} connections not authorized yet in all: closed the oldest (from {})",
                    peer_name(socket), pending_->total_limit(), admission.evicted));
  }
  return std::move(admission.ticket);
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

std::size_t Listener::pending_connections() const { return pending_->pending(); }

}  // namespace schedrig::server
