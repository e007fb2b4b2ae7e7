// The server before a token is checked (docs/architecture.md "Server"):
// headers first, so a refusal (401, 403, 404, 413) never waits for a body;
// one deadline from accept to an authorized request header (TLS handshake
// included), however slowly the bytes come; idle keep-alive bounded; at most
// 64 pending connections per peer address, which agents past their upgrade
// do not count against.
#include <poll.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "host/server/listener.h"
#include "tests/host/server/test_server.h"
#include "tests/support/run_command.h"
#include "tests/support/test_pki.h"

namespace schedrig::server {
namespace {

using namespace std::chrono_literals;
using namespace schedrig::testing;
using Clock = std::chrono::steady_clock;

// Counts the API requests that reached the handler and the bytes of their bodies.
class CountingApi : public ApiHandler {
 public:
  void handle(ApiRequest request, std::function<void(ApiResponse)> done) override {
    calls_ += 1;
    body_bytes_ += request.body.size();
    done({200, "ok", "text/plain"});
  }
  int calls() const { return calls_; }
  std::size_t body_bytes() const { return body_bytes_; }

 private:
  std::atomic<int> calls_{0};
  std::atomic<std::size_t> body_bytes_{0};
};

// A raw client on `Next` (beast::tcp_stream, or an ssl_stream over one) that
// writes whatever bytes a test wants and tells when the server closed.
template <class Next>
class RawPeer {
 public:
  explicit RawPeer(unsigned short port, asio::ssl::context* tls = nullptr)
      : stream_(testing::make_stream<Next>(ioc_, tls)) {
    beast::get_lowest_layer(stream_).connect(
        tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
  }
  void handshake() {
    if constexpr (!std::is_same_v<Next, beast::tcp_stream>) {
      stream_.handshake(asio::ssl::stream_base::client);
    }
  }
  // Writes `bytes`; false once the server has closed.
  bool send(const std::string& bytes) {
    beast::error_code ec;
    asio::write(stream_, asio::buffer(bytes), ec);
    return !ec;
  }
  // True when the server closes (FIN or reset) within `wait`; reads
  // nothing, so a check that says no leaves the connection as it was.
  bool closed_within(std::chrono::milliseconds wait) {
    pollfd p{beast::get_lowest_layer(stream_).socket().native_handle(), POLLRDHUP, 0};
    const int n = ::poll(&p, 1, static_cast<int>(wait.count()));
    return n > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR)) != 0;
  }
  // The server's answer, read within `wait` (status 0: none came).
  http::response<http::string_body> response(std::chrono::milliseconds wait) {
    beast::get_lowest_layer(stream_).expires_after(wait);
    http::response<http::string_body> res;
    beast::error_code result = asio::error::would_block;
    http::async_read(stream_, buffer_, res,
                     [&](beast::error_code ec, std::size_t) { result = ec; });
    ioc_.restart();
    ioc_.run();
    beast::get_lowest_layer(stream_).expires_never();
    if (result) res.result(0);
    return res;
  }

 private:
  asio::io_context ioc_;
  Next stream_;
  beast::flat_buffer buffer_;
};

using PlainPeer = RawPeer<beast::tcp_stream>;
using TlsPeer = RawPeer<beast::ssl_stream<beast::tcp_stream>>;

// The headers of a POST with `token` ("" = none) announcing `length` bytes of body.
std::string post_head(const std::string& target, const std::string& token, std::size_t length) {
  std::string head = "POST " + target + " HTTP/1.1\r\nHost: x\r\n";
  if (!token.empty()) head += "Authorization: Bearer " + token + "\r\n";
  return head + "Content-Length: " + std::to_string(length) + "\r\n\r\n";
}

// Trickles a header a byte every 100 ms (never finishing it) until the
// server closes; the seconds from `since` to the close (-1: not within `limit`).
template <class Peer>
double trickle_until_closed(Peer& peer, Clock::time_point since, std::chrono::seconds limit) {
  const std::string head = "GET /api/v1/agents HTTP/1.1\r\nHost: x\r\nX-Slow: ";
  peer.send(head);
  while (Clock::now() - since < limit) {
    peer.send("a");
    if (peer.closed_within(100ms)) {
      return std::chrono::duration<double>(Clock::now() - since).count();
    }
  }
  return -1;
}

// Polls `condition` for up to 5 s.
template <class F>
bool eventually(F condition) {
  for (int i = 0; i < 500; ++i) {
    if (condition()) return true;
    std::this_thread::sleep_for(10ms);
  }
  return condition();
}

TEST(ServerPreauth, TheDefaultDeadlinesAndCaps) {
  const ServerOptions o;
  EXPECT_EQ(o.auth_timeout, 10s);
  EXPECT_EQ(o.body_timeout, 30s);
  EXPECT_EQ(o.keep_alive_timeout, 30s);
  EXPECT_EQ(o.max_pending_per_peer, 64u);
  EXPECT_EQ(o.max_pending, 1024u);
}

TEST(ServerPreauth, ASlowlorisHeaderIsDroppedAtTheAuthDeadline) {
  CountingApi api;
  TestServer server({.api = &api, .adjust = [](ServerOptions& o) { o.auth_timeout = 1s; }});
  const auto t0 = Clock::now();
  PlainPeer peer(server.port());
  const double closed_at = trickle_until_closed(peer, t0, 10s);
  EXPECT_GE(closed_at, 0.9) << "closed before the deadline";
  EXPECT_LE(closed_at, 2.5) << "a byte every 100 ms kept the connection (-1: never closed)";
  EXPECT_EQ(api.calls(), 0);
}

TEST(ServerPreauth, RefusalsDoNotRestartTheAuthDeadline) {
  CountingApi api;
  TestServer server({.api = &api, .adjust = [](ServerOptions& o) { o.auth_timeout = 1500ms; }});
  const auto t0 = Clock::now();
  PlainPeer peer(server.port());
  int refused = 0;
  while (Clock::now() - t0 < 5s && peer.send("GET /api/v1/agents HTTP/1.1\r\nHost: x\r\n\r\n")) {
    const auto res = peer.response(1s);
    if (res.result_int() != 401) break;
    ++refused;
    std::this_thread::sleep_for(100ms);
  }
  const double closed_at = std::chrono::duration<double>(Clock::now() - t0).count();
  EXPECT_GE(refused, 3) << "each refusal is answered, on the same connection";
  EXPECT_LE(closed_at, 3.0) << "401s on keep-alive kept a connection without a token";
}

TEST(ServerPreauth, AnAuthorizedConnectionIdlesAtMostTheKeepAliveTimeout) {
  CountingApi api;
  TestServer server({.api = &api, .adjust = [](ServerOptions& o) {
                       o.auth_timeout = 500ms;
                       o.keep_alive_timeout = 1500ms;
                     }});
  PlainPeer peer(server.port());
  ASSERT_TRUE(peer.send("GET /api/v1/agents HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " +
                        kAliceToken + "\r\n\r\n"));
  EXPECT_EQ(peer.response(2s).result_int(), 200u);
  EXPECT_FALSE(peer.closed_within(800ms)) << "authorized: the auth deadline no longer applies";
  EXPECT_TRUE(peer.closed_within(1500ms)) << "idle past keep_alive_timeout";
}

class ServerPreauthTls : public ::testing::Test {
 protected:
  void SetUp() override {
    pki_ = make_test_pki(dir_.path());
    server_ctx_ = std::make_shared<asio::ssl::context>(asio::ssl::context::tls_server);
    server_ctx_->use_certificate_chain_file(pki_.server_cert);
    server_ctx_->use_private_key_file(pki_.server_key, asio::ssl::context::pem);
    client_ctx_ = client_context(pki_.ca_cert);
  }
  TempDir dir_;
  TestPki pki_;
  std::shared_ptr<asio::ssl::context> server_ctx_, client_ctx_;
};

// The deadline runs from accept: a slow handshake leaves less time for the header.
TEST_F(ServerPreauthTls, HandshakeAndHeaderShareOneDeadline) {
  TestServer server({.tls = server_ctx_, .adjust = [](ServerOptions& o) { o.auth_timeout = 2s; }});
  const auto t0 = Clock::now();
  TlsPeer peer(server.port(), client_ctx_.get());
  std::this_thread::sleep_for(1200ms);
  peer.handshake();
  const double closed_at = trickle_until_closed(peer, t0, 10s);
  EXPECT_GE(closed_at, 1.8);
  EXPECT_LE(closed_at, 3.0) << "the deadline restarted after the handshake (-1: never closed)";
}

TEST_F(ServerPreauthTls, ASilentSocketIsClosedAtTheAuthDeadline) {
  TestServer server({.tls = server_ctx_, .adjust = [](ServerOptions& o) { o.auth_timeout = 1s; }});
  PlainPeer silent(server.port());
  EXPECT_FALSE(silent.closed_within(600ms));
  EXPECT_TRUE(silent.closed_within(2s));
}

// Content-Length 1 MiB (the limit) and no body ever sent: the answer comes
// at once, not after a body the server would wait for.
TEST(ServerPreauth, ABodyIsNotReadBeforeTheTokenIsAccepted) {
  CountingApi api;
  TestServer server({.api = &api});
  struct Case {
    std::string target, token;
    std::size_t length;
    unsigned status;
  };
  const std::size_t mib = 1024 * 1024;
  for (const Case& c :
       {Case{"/api/v1/runs", "", mib, 401}, Case{"/api/v1/runs", "wrong", mib, 401},
        Case{"/api/v1/runs", kBox1Token, mib, 403}, Case{"/elsewhere", kAliceToken, mib, 404},
        Case{"/api/v1/runs", "", 2 * mib, 401}, Case{"/api/v1/runs", kAliceToken, 2 * mib, 413}}) {
    SCOPED_TRACE(c.target + " token '" + c.token + "' length " + std::to_string(c.length));
    PlainPeer peer(server.port());
    ASSERT_TRUE(peer.send(post_head(c.target, c.token, c.length)));
    const auto t0 = Clock::now();
    const auto res = peer.response(3s);
    EXPECT_EQ(res.result_int(), c.status);
    EXPECT_LT(Clock::now() - t0, 2s);
    EXPECT_FALSE(res.keep_alive()) << "the unread body must not be parsed as a request";
    EXPECT_TRUE(peer.closed_within(3s));
  }
  EXPECT_EQ(api.calls(), 0);
}

// Chunk extensions and trailers escape the body limit: a chunked request is
// answered 411 at once, its body never read (here: one endless chunk
// extension), and the connection closes.
TEST(ServerPreauth, AChunkedBodyIsRefusedWithLengthRequiredUnread) {
  CountingApi api;
  TestServer server({.api = &api});
  PlainPeer peer(server.port());
  ASSERT_TRUE(
      peer.send("POST /api/v1/runs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " + kAliceToken +
                "\r\nTransfer-Encoding: chunked\r\n\r\n1;ext=" + std::string(64 * 1024, 'e')));
  const auto t0 = Clock::now();
  const auto res = peer.response(3s);
  EXPECT_EQ(res.result_int(), 411u);
  EXPECT_NE(res.body().find("Content-Length"), std::string::npos) << res.body();
  EXPECT_LT(Clock::now() - t0, 2s);
  EXPECT_FALSE(res.keep_alive());
  EXPECT_TRUE(peer.closed_within(3s));
  EXPECT_EQ(api.calls(), 0);
  PlainPeer stranger(server.port());  // without a token: 401 still, nothing else told
  ASSERT_TRUE(
      stranger.send("POST /api/v1/runs HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"));
  EXPECT_EQ(stranger.response(3s).result_int(), 401u);
}

TEST(ServerPreauth, AnAuthorizedBodyUpToTheLimitIsReadWhole) {
  CountingApi api;
  TestServer server({.api = &api});
  PlainPeer peer(server.port());
  const std::size_t mib = 1024 * 1024;
  ASSERT_TRUE(peer.send(post_head("/api/v1/runs", kAliceToken, mib) + std::string(mib, 'x')));
  EXPECT_EQ(peer.response(5s).result_int(), 200u);
  EXPECT_EQ(api.calls(), 1);
  EXPECT_EQ(api.body_bytes(), mib);
}

// curl's way: the headers with Expect: 100-continue, the body only after
// the server's 100 Continue, which only an authorized request gets.
TEST(ServerPreauth, ExpectContinueIsAnsweredOnlyOnceAuthorized) {
  CountingApi api;
  TestServer server({.api = &api});
  const std::string expect = "Expect: 100-continue\r\n\r\n";
  auto head = [&](const std::string& token) {
    std::string h = post_head("/api/v1/runs", token, 5);
    return h.substr(0, h.size() - 2) + expect;
  };
  PlainPeer stranger(server.port());
  ASSERT_TRUE(stranger.send(head("")));
  EXPECT_EQ(stranger.response(2s).result_int(), 401u);
  PlainPeer alice(server.port());
  ASSERT_TRUE(alice.send(head(kAliceToken)));
  EXPECT_EQ(alice.response(2s).result_int(), 100u);
  ASSERT_TRUE(alice.send("hello"));
  EXPECT_EQ(alice.response(2s).result_int(), 200u);
  EXPECT_EQ(api.calls(), 1);
  EXPECT_EQ(api.body_bytes(), 5u);
}

// The refused peer is still sending its body: the server discards it after
// answering, so the answer arrives rather than a reset.
TEST(ServerPreauth, ARefusedPeerSendingItsBodyStillGetsTheAnswer) {
  CountingApi api;
  TestServer server({.api = &api});
  PlainPeer peer(server.port());
  const std::size_t length = 512 * 1024;
  ASSERT_TRUE(peer.send(post_head("/api/v1/runs", "", length)));
  std::this_thread::sleep_for(100ms);  // the answer is written while the body comes
  EXPECT_TRUE(peer.send(std::string(length, 'x')));
  EXPECT_EQ(peer.response(3s).result_int(), 401u);
}

// An agent counts as pending until its Hello is accepted (a WebSocket that
// never says Hello must not escape the cap); past it, it does not count.
TEST(ServerPreauth, APeerHasAtMost64PendingConnectionsAndAgentsPastHelloDoNotCount) {
  TestServer server({.max_connections = 512});
  AgentClient box1(server.port(), kBox1Token);
  ASSERT_FALSE(box1.error()) << box1.error().message();
  EXPECT_EQ(server.listener().pending_connections(), 1u) << "pending until its Hello";
  box1.send(hello("box1", 1));
  EXPECT_TRUE(box1.read().has_ack());
  ASSERT_TRUE(eventually([&] { return server.listener().pending_connections() == 0; }))
      << "an agent past its Hello is not pending";
  std::vector<std::unique_ptr<PlainPeer>> idle;
  for (int i = 0; i < 64; ++i) idle.push_back(std::make_unique<PlainPeer>(server.port()));
  ASSERT_TRUE(eventually([&] { return server.listener().pending_connections() == 64; }))
      << server.listener().pending_connections();
  for (int i = 0; i < 3; ++i) {
    PlainPeer extra(server.port());
    EXPECT_TRUE(extra.closed_within(2s)) << "the 65th pending connection is closed at once";
  }
  EXPECT_EQ(server.listener().pending_refusal_lines(), 1u) << "refusals are rate-limited";
  EXPECT_FALSE(idle.front()->closed_within(100ms)) << "the first 64 are kept";
  idle.pop_back();  // one pending connection goes: a new agent may connect
  ASSERT_TRUE(eventually([&] { return server.listener().pending_connections() == 63; }));
  AgentClient late(server.port(), kBox2Token);
  ASSERT_FALSE(late.error()) << late.error().message();
  late.send(hello("box2", 1));
  EXPECT_TRUE(late.read().has_ack()) << "agents are served meanwhile";
  EXPECT_EQ(server.listener().open_connections(), 1u + 63u + 1u);
}

// At the total cap a new connection evicts the oldest pending one instead of
// being refused: a flood of idle sockets cannot lock a client out.
TEST(ServerPreauth, AtTheTotalCapTheOldestPendingConnectionIsEvicted) {
  CountingApi api;
  TestServer server({.api = &api, .adjust = [](ServerOptions& o) { o.max_pending = 4; }});
  std::vector<std::unique_ptr<PlainPeer>> flood;
  for (int i = 0; i < 4; ++i) {
    flood.push_back(std::make_unique<PlainPeer>(server.port()));
    ASSERT_TRUE(
        eventually([&] { return server.listener().pending_connections() == flood.size(); }));
  }
  PlainPeer alice(server.port());
  EXPECT_TRUE(flood[0]->closed_within(2s)) << "the oldest pending connection is evicted";
  EXPECT_FALSE(flood[1]->closed_within(100ms)) << "only the oldest";
  ASSERT_TRUE(alice.send("GET /api/v1/agents HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer " +
                         kAliceToken + "\r\n\r\n"));
  EXPECT_EQ(alice.response(2s).result_int(), 200u) << "the newcomer is served";
  EXPECT_EQ(api.calls(), 1);
  ASSERT_TRUE(eventually([&] { return server.listener().pending_connections() == 3; }));
  EXPECT_EQ(server.listener().pending_eviction_lines(), 1u);
}

}  // namespace
}  // namespace schedrig::server
