#include "host/client/tls_probe.h"

#include <optional>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>

namespace schedrig::client {

namespace asio = boost::asio;
namespace beast = boost::beast;
using tcp = asio::ip::tcp;

bool speaks_tls(const ServerUrl& url, std::chrono::milliseconds timeout) {
  try {
    asio::io_context ioc;
    asio::ssl::context ctx(asio::ssl::context::tls_client);
    ctx.set_verify_mode(asio::ssl::verify_none);
    beast::ssl_stream<beast::tcp_stream> stream(ioc, ctx);
    beast::get_lowest_layer(stream).expires_after(timeout);
    tcp::resolver resolver(ioc);
    std::optional<bool> done;
    resolver.async_resolve(url.host, url.port, [&](auto ec, tcp::resolver::results_type eps) {
      if (ec) {
        done = false;
        return;
      }
      beast::get_lowest_layer(stream).async_connect(eps, [&](auto ec2, const auto&) {
        if (ec2) {
          done = false;
          return;
        }
        stream.async_handshake(asio::ssl::stream_base::client, [&](auto ec3) { done = !ec3; });
      });
    });
    ioc.run_for(timeout);
    return done.value_or(false);
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace schedrig::client
