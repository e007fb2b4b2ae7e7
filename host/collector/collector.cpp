#include "host/collector/collector.h"
#include "common/parse_whole.h"


#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <boost/asio/strand.hpp>

namespace schedrig::collector {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

tcp::endpoint parse_listen_address(const std::string& text) {
  auto colon = text.rfind(':');
  if (colon == std::string::npos) {
    throw CollectorError(
        ErrorKind::kUsage,
        fmt::format("listen address '{}': want ADDR:PORT, e.g. 127.0.0.1:7878", text));
  }
  std::string host = text.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  std::string port_text = text.substr(colon + 1);
  const auto port = try_parse_whole<unsigned>(port_text);
  if (!port || *port > 65535) {
    throw CollectorError(
        ErrorKind::kUsage,
        fmt::format("listen address '{}': port '{}' is not in 0..65535", text, port_text));
  }
  boost::system::error_code bad;
  auto addr = asio::ip::make_address(host, bad);
  if (bad)
    throw CollectorError(ErrorKind::kUsage,
                         fmt::format("listen address '{}': '{}' is not an IP address", text, host));
  return {addr, static_cast<unsigned short>(*port)};
}

Collector::Collector(asio::io_context& ioc, const tcp::endpoint& endpoint, store::Store& store,
                     CollectorEvents& events)
    : ioc_(ioc), acceptor_(asio::make_strand(ioc)), store_(store), events_(events) {
  boost::system::error_code ec;
  auto fail = [&](const char* step) {
    throw CollectorError(ErrorKind::kUnreachable, fmt::format("cannot listen on {}:{}: {}: {}",
                                                              endpoint.address().to_string(),
                                                              endpoint.port(), step, ec.message()));
  };
  if (acceptor_.open(endpoint.protocol(), ec)) fail("open");
  if (acceptor_.set_option(asio::socket_base::reuse_address(true), ec)) fail("SO_REUSEADDR");
  if (acceptor_.bind(endpoint, ec)) fail("bind");
  if (acceptor_.listen(asio::socket_base::max_listen_connections, ec)) fail("listen");
}

tcp::endpoint Collector::local_endpoint() const { return acceptor_.local_endpoint(); }

void Collector::start() { do_accept(); }

void Collector::do_accept() {
  acceptor_.async_accept(
      asio::make_strand(ioc_), [this](boost::system::error_code ec, tcp::socket s) {
        if (ec == asio::error::operation_aborted) return;
        if (ec) {
          spdlog::warn("accept: {}", ec.message());
        } else {
          auto session = std::make_shared<AgentSession>(std::move(s), store_, events_);
          {
            std::lock_guard lock(mu_);
            std::erase_if(sessions_, [](const auto& w) { return w.expired(); });
            sessions_.push_back(session);
          }
          session->run();
        }
        do_accept();
      });
}

void Collector::stop() {
  asio::post(acceptor_.get_executor(), [this] {
    boost::system::error_code ignored;
    acceptor_.close(ignored);
  });
  std::lock_guard lock(mu_);
  for (auto& w : sessions_) {
    if (auto s = w.lock()) s->close();
  }
}

std::size_t Collector::open_sessions() {
  std::lock_guard lock(mu_);
  std::size_t open = 0;
  for (auto& w : sessions_) open += !w.expired();
  return open;
}

}  // namespace schedrig::collector
