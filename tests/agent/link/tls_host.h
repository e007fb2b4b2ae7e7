// A tiny synchronous Beast TLS WebSocket server playing the host for the
// agent's link and `connect` tests, with a PKI from tests/support/test_pki.h.
#pragma once

#include <optional>
#include <string>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>

#include "schedrig/v1/envelope.pb.h"
#include "tests/support/test_pki.h"

namespace schedrig::testing {

class TlsHost {
 public:
  // Listens on ADDRESS:<ephemeral> with the PKI's server certificate.
  explicit TlsHost(const TestPki& pki, const std::string& address = "127.0.0.1");
  unsigned short port() const { return acceptor_.local_endpoint().port(); }

  // Waits up to 20 s for one client: TLS handshake, the upgrade request (its
  // Authorization and SNI name remembered), then a WebSocket, or `refuse`
  // (with WWW-Authenticate: Bearer) as the answer. Failures land in
  // `handshake_error`. May be called again for the next client.
  void accept(boost::beast::http::status refuse = boost::beast::http::status::switching_protocols);
  // The accepted WebSocket (after accept() without a refusal).
  void send(schedrig::v1::Envelope env);  // stamps protocol_version
  schedrig::v1::Envelope read();          // a test failure when it does not decode
  void read_until_closed();               // until the client's close (answered) or an error
  // Sends a close frame with `code` and `reason`, then reads until the
  // client answers it (or an error).
  void close_with(boost::beast::websocket::close_code code, const std::string& reason);

  std::string authorization;    // of the upgrade request
  std::string sni;              // the client's server name indication
  std::string handshake_error;  // why no upgrade request was read

 private:
  using TlsStream = boost::beast::ssl_stream<boost::asio::ip::tcp::socket>;
  std::optional<boost::asio::ip::tcp::socket> accept_within_deadline();

  std::shared_ptr<boost::asio::ssl::context> ctx_;
  boost::asio::io_context ioc_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::optional<boost::beast::websocket::stream<TlsStream>> ws_;
};

}  // namespace schedrig::testing
