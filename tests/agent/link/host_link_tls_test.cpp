// The agent's HostLink over wss:// against a tiny synchronous Beast TLS
// WebSocket server using a throwaway PKI (tests/support/test_pki.h): the
// handshake verifies the chain and the host name, the token arrives as
// "Authorization: Bearer", and a host that refuses the token (401/403) or
// an untrusted certificate ends connect() with the reason.
#include <openssl/ssl.h>

#include <thread>

#include <gtest/gtest.h>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>

#include "agent/link/host_link.h"
#include "common/envelope_codec.h"
#include "common/tls/tls_context.h"
#include "tests/agent/link/tls_host.h"
#include "tests/support/run_command.h"
#include "tests/support/test_pki.h"

namespace schedrig::link {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using namespace std::chrono_literals;
namespace v1 = schedrig::v1;
using testing::make_test_pki;
using testing::TempDir;
using testing::TestPki;
using testing::TlsHost;

std::string wss(const std::string& host, unsigned short port) {
  return "wss://" + host + ":" + std::to_string(port) + "/agent";
}

// connect()'s LinkError; fails the test when it connects.
LinkError connect_error(const std::string& url, const LinkSecurity& security) {
  HostLink link(AgentIdentity{"box1", "boot", "inst"});
  try {
    link.connect(url, 5s, security);
  } catch (const LinkError& e) {
    return e;
  }
  ADD_FAILURE() << "connected to " << url;
  return LinkError(ErrorKind::kFailed, "");
}

TEST(HostLinkTls, HandshakeSendsTheTokenAndCarriesEnvelopes) {
  const TempDir dir;
  const TestPki pki = make_test_pki(dir.path());
  TlsHost host(pki);
  std::thread server([&] { host.accept(); });
  HostLink link(AgentIdentity{"box1", "boot", "inst"});
  link.connect(wss("127.0.0.1", host.port()), 5s, LinkSecurity{"s3cret-token", pki.ca_cert});
  server.join();
  EXPECT_EQ(host.handshake_error, "");
  EXPECT_EQ(host.authorization, "Bearer s3cret-token");
  EXPECT_EQ(host.sni, "");  // no SNI for an address (RFC 6066)

  v1::Envelope hello;
  hello.mutable_hello()->set_hostname("box1.lab");
  const std::uint64_t seq = link.send(hello);
  const v1::Envelope got = host.read();
  EXPECT_EQ(got.hello().hostname(), "box1.lab");
  EXPECT_EQ(got.agent_id(), "box1");
  EXPECT_EQ(got.seq(), seq);

  v1::Envelope ack;
  ack.mutable_ack()->set_seq(seq);
  ack.mutable_ack()->set_instance_id("inst");
  host.send(ack);
  v1::Envelope ping;
  ping.mutable_ping();
  host.send(ping);
  auto cmd = link.next_command(5s);
  ASSERT_TRUE(cmd);
  EXPECT_TRUE(cmd->has_ping());
  EXPECT_EQ(link.acked_seq(), seq);

  std::thread closer([&] { host.read_until_closed(); });
  link.close();
  closer.join();
  EXPECT_TRUE(link.closed_cleanly()) << link.close_reason();
}

// A name in the certificate's DNS SANs: sent as SNI and accepted.
TEST(HostLinkTls, AHostNameIsSentAsSniAndVerified) {
  const TempDir dir;
  const TestPki pki = make_test_pki(dir.path());
  TlsHost host(pki);
  std::thread server([&] { host.accept(); });
  HostLink link(AgentIdentity{"box1", "boot", "inst"});
  link.connect(wss("localhost", host.port()), 5s, LinkSecurity{"t", pki.ca_cert});
  server.join();
  EXPECT_EQ(host.sni, "localhost");
  std::thread closer([&] { host.read_until_closed(); });
  link.close();
  closer.join();
}

TEST(HostLinkTls, ACertificateFromAnotherCaIsRefused) {
  const TempDir a, b;
  const TestPki pki = make_test_pki(a.path());
  const TestPki other = make_test_pki(b.path());
  TlsHost host(pki);
  std::thread server([&] { host.accept(); });
  const LinkError e = connect_error(wss("127.0.0.1", host.port()), {"t", other.ca_cert});
  server.join();
  EXPECT_EQ(e.kind(), ErrorKind::kUnreachable);
  EXPECT_EQ(std::string(e.what()), "cannot reach " + wss("127.0.0.1", host.port()) +
                                       ": TLS handshake: certificate verify failed: unable to "
                                       "get local issuer certificate");
  EXPECT_EQ(host.authorization, "");  // the token never left the agent
  EXPECT_NE(host.handshake_error, "");
}

// 127.0.0.2 is loopback too, but not in the certificate's SANs.
TEST(HostLinkTls, ACertificateForAnotherHostIsRefused) {
  const TempDir dir;
  const TestPki pki = make_test_pki(dir.path());
  TlsHost host(pki, "127.0.0.2");
  std::thread server([&] { host.accept(); });
  const LinkError e = connect_error(wss("127.0.0.2", host.port()), {"t", pki.ca_cert});
  server.join();
  EXPECT_EQ(e.kind(), ErrorKind::kUnreachable);
  EXPECT_EQ(std::string(e.what()),
            "cannot reach " + wss("127.0.0.2", host.port()) +
                ": TLS handshake: certificate verify failed: the host's certificate is not valid "
                "for 127.0.0.2");
  EXPECT_EQ(host.authorization, "");
}

TEST(HostLinkTls, ARefusedTokenSaysSo) {
  const TempDir dir;
  const TestPki pki = make_test_pki(dir.path());
  for (auto [status, text] : {std::pair{http::status::unauthorized, "401 Unauthorized"},
                              std::pair{http::status::forbidden, "403 Forbidden"}}) {
    TlsHost host(pki);
    std::thread server([&, s = status] { host.accept(s); });
    const LinkError e = connect_error(wss("127.0.0.1", host.port()), {"wrong", pki.ca_cert});
    server.join();
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);  // reached, and told the token is wrong: exit 2
    EXPECT_EQ(std::string(e.what()), "host at " + wss("127.0.0.1", host.port()) +
                                         " refused the agent's token (" + text + ")");
    EXPECT_EQ(host.authorization, "Bearer wrong");
  }
}

// ws:// to the TLS port: the plain upgrade gets no HTTP answer (never
// "HTTP 200 OK"), and a probing TLS handshake says the server speaks TLS.
TEST(HostLinkTls, PlainWsToATlsPortSaysUseWss) {
  const TempDir dir;
  const TestPki pki = make_test_pki(dir.path());
  TlsHost host(pki);
  std::thread server([&] {
    host.accept();  // the agent's plain upgrade: not TLS
    host.accept();  // the probe: a TLS handshake, then nothing
  });
  const std::string url = "ws://127.0.0.1:" + std::to_string(host.port()) + "/agent";
  const LinkError e = connect_error(url, {"t", ""});
  server.join();
  EXPECT_EQ(e.kind(), ErrorKind::kUnreachable);
  EXPECT_EQ(std::string(e.what()), "cannot reach " + url + ": the server speaks TLS: use " +
                                       wss("127.0.0.1", host.port()));
}

// wss:// to a plain HTTP port: the handshake is answered with HTTP, and the
// message says so and which URL to use.
TEST(HostLinkTls, WssToAPlainPortSaysUseWs) {
  asio::io_context ioc;
  tcp::acceptor acceptor(ioc, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  const unsigned short port = acceptor.local_endpoint().port();
  std::thread server([&] {
    tcp::socket s = acceptor.accept();
    char hello[512];
    beast::error_code ec;
    s.read_some(asio::buffer(hello), ec);
    asio::write(
        s, asio::buffer(std::string("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")), ec);
    s.shutdown(tcp::socket::shutdown_both, ec);
  });
  const TempDir dir;
  const TestPki pki = make_test_pki(dir.path());
  const LinkError e = connect_error(wss("127.0.0.1", port), {"t", pki.ca_cert});
  server.join();
  EXPECT_EQ(e.kind(), ErrorKind::kUnreachable);
  EXPECT_EQ(std::string(e.what()),
            "cannot reach " + wss("127.0.0.1", port) +
                ": TLS handshake: the server did not answer TLS: is it serving plain HTTP? (then "
                "use ws://127.0.0.1:" +
                std::to_string(port) + "/agent)");
}

// A 404 on the upgrade is a wrong path: bad configuration (exit 2).
TEST(HostLinkTls, A404OnTheUpgradeIsBadUsage) {
  const TempDir dir;
  const TestPki pki = make_test_pki(dir.path());
  TlsHost host(pki);
  std::thread server([&] { host.accept(http::status::not_found); });
  const std::string url = "wss://127.0.0.1:" + std::to_string(host.port()) + "/agnet";
  const LinkError e = connect_error(url, {"t", pki.ca_cert});
  server.join();
  EXPECT_EQ(e.kind(), ErrorKind::kUsage);
  EXPECT_EQ(std::string(e.what()),
            "host at " + url +
                " has no WebSocket endpoint at /agnet (HTTP 404 Not Found): check the URL's path "
                "(agents connect to /agent)");
}

TEST(HostLinkTls, AnUnusableCaFileIsBadUsage) {
  const TempDir dir;
  const LinkError e = connect_error("wss://127.0.0.1:1/agent", {"t", dir.file("missing.pem")});
  EXPECT_EQ(e.kind(), ErrorKind::kUsage);
  EXPECT_EQ(std::string(e.what()),
            "CA file " + dir.file("missing.pem") + ": No such file or directory");
}

}  // namespace
}  // namespace schedrig::link
