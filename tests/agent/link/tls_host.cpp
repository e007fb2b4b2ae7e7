#include "tests/agent/link/tls_host.h"

#include <openssl/ssl.h>

#include <gtest/gtest.h>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include "common/envelope_codec.h"
#include "common/tls/tls_context.h"

namespace schedrig::testing {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
namespace v1 = schedrig::v1;

TlsHost::TlsHost(const TestPki& pki, const std::string& address)
    : ctx_(tls::server_tls_context(pki.server_cert, pki.server_key)),
      acceptor_(ioc_, tcp::endpoint(asio::ip::make_address(address), 0)) {}

std::optional<tcp::socket> TlsHost::accept_within_deadline() {
  std::optional<tcp::socket> socket;
  ioc_.restart();  // a run that ran out of work stops the context: accept() may come again
  acceptor_.async_accept([&](beast::error_code ec, tcp::socket s) {
    if (!ec) socket.emplace(std::move(s));
  });
  ioc_.run_for(std::chrono::seconds(20));
  if (!socket) {
    acceptor_.cancel();
    ioc_.restart();
    ioc_.run();
  }
  return socket;
}

void TlsHost::accept(http::status refuse) {
  std::optional<tcp::socket> socket = accept_within_deadline();
  if (!socket) return void(handshake_error = "no client within 20 s");
  TlsStream tls(std::move(*socket), *ctx_);
  beast::error_code ec;
  tls.handshake(ssl::stream_base::server, ec);
  if (ec) return void(handshake_error = ec.message());
  if (const char* name = SSL_get_servername(tls.native_handle(), TLSEXT_NAMETYPE_host_name))
    sni = name;
  beast::flat_buffer buf;
  http::request<http::string_body> req;
  http::read(tls, buf, req, ec);
  if (ec) return void(handshake_error = "upgrade request: " + ec.message());
  authorization = std::string(req[http::field::authorization]);
  if (refuse != http::status::switching_protocols) {
    http::response<http::string_body> res{refuse, 11};
    res.set(http::field::www_authenticate, "Bearer");
    res.prepare_payload();
    http::write(tls, res, ec);
    tls.shutdown(ec);
    return;
  }
  ws_.emplace(std::move(tls));
  ws_->binary(true);
  ws_->accept(req);
}

void TlsHost::send(v1::Envelope env) {
  env.set_protocol_version(kProtocolVersion);
  ws_->write(asio::buffer(encode_envelope(env)));
}

v1::Envelope TlsHost::read() {
  beast::flat_buffer buf;
  ws_->read(buf);
  DecodeResult r = decode_envelope(beast::buffers_to_string(buf.data()));
  EXPECT_TRUE(r.envelope) << r.error;
  return r.envelope.value_or(v1::Envelope{});
}

void TlsHost::read_until_closed() {
  beast::error_code ec;
  for (beast::flat_buffer buf; !ec; buf.clear()) ws_->read(buf, ec);
}

void TlsHost::close_with(beast::websocket::close_code code, const std::string& reason) {
  beast::error_code ec;
  ws_->close(beast::websocket::close_reason(code, reason), ec);
}

}  // namespace schedrig::testing
