#include "common/tls/scheme_hint.h"

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <optional>

#include <boost/asio/error.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>

namespace schedrig::tls {

namespace asio = boost::asio;
namespace beast = boost::beast;
using tcp = asio::ip::tcp;

bool not_tls_answer(const boost::system::error_code& ec) {
  if (ec == asio::ssl::error::stream_truncated || ec == asio::error::eof ||
      ec == asio::error::connection_reset) {
    return true;
  }
  if (ec.category() != asio::error::get_ssl_category()) return false;
  const int reason = ERR_GET_REASON(static_cast<unsigned long>(ec.value()));
  return reason == SSL_R_WRONG_VERSION_NUMBER || reason == SSL_R_PACKET_LENGTH_TOO_LONG ||
         reason == SSL_R_UNEXPECTED_EOF_WHILE_READING;
}

bool speaks_tls(const std::string& host, const std::string& port,
                std::chrono::milliseconds timeout) {
  try {
    asio::io_context ioc;
    asio::ssl::context ctx(asio::ssl::context::tls_client);
    ctx.set_verify_mode(asio::ssl::verify_none);
    beast::ssl_stream<beast::tcp_stream> stream(ioc, ctx);
    beast::get_lowest_layer(stream).expires_after(timeout);
    tcp::resolver resolver(ioc);
    std::optional<bool> done;
    resolver.async_resolve(host, port, [&](auto ec, tcp::resolver::results_type eps) {
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

std::string not_tls_hint(const std::string& plain_url) {
  return "the server did not answer TLS: is it serving plain HTTP? (then use " + plain_url + ")";
}

std::string speaks_tls_hint(const std::string& tls_url) {
  return "the server speaks TLS: use " + tls_url;
}

}  // namespace schedrig::tls
