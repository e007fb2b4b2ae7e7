// The agent's HostLink against a bare synchronous WebSocket server playing a
// misbehaving host: a frame that does not decode, or speaks another
// protocol version, is answered with an Error envelope and the link stays
// up for the next message.
#include "agent/link/host_link.h"

#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include "common/envelope_codec.h"

namespace schedrig::link {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using namespace std::chrono_literals;
namespace v1 = schedrig::v1;

// Accepts one WebSocket client on 127.0.0.1:<ephemeral>.
class FakeHost {
 public:
  FakeHost() : acceptor_(ioc_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)) {}
  unsigned short port() const { return acceptor_.local_endpoint().port(); }
  // Reads the upgrade request (remembering its Authorization), then accepts.
  void accept() {
    tcp::socket socket = acceptor_.accept();
    beast::flat_buffer buf;
    beast::http::request<beast::http::string_body> req;
    beast::http::read(socket, buf, req);
    authorization = std::string(req[beast::http::field::authorization]);
    ws_.emplace(std::move(socket));
    ws_->binary(true);
    ws_->accept(req);
  }
  void send_raw(const std::string& bytes) { ws_->write(asio::buffer(bytes)); }
  void ping() { ws_->ping({}); }
  // Sends a close frame with `code` and waits for the client's answer.
  void close_with(websocket::close_code code) {
    beast::error_code ec;
    ws_->close(code, ec);
  }
  // Reads until the client's close frame (which Beast answers) or an error.
  void read_until_closed() {
    beast::error_code ec;
    for (beast::flat_buffer buf; !ec; buf.clear()) ws_->read(buf, ec);
  }
  v1::Envelope read() {
    beast::flat_buffer buf;
    ws_->read(buf);
    DecodeResult r = decode_envelope(beast::buffers_to_string(buf.data()));
    EXPECT_TRUE(r.envelope) << r.error;
    return r.envelope.value_or(v1::Envelope{});
  }

  std::string authorization;  // of the upgrade request

 private:
  asio::io_context ioc_;
  tcp::acceptor acceptor_;
  std::optional<websocket::stream<tcp::socket>> ws_;
};

TEST(HostLink, AnswersBadHostFramesWithErrorAndStaysUp) {
  FakeHost host;
  std::thread server([&] { host.accept(); });
  HostLink link(AgentIdentity{"box", "boot", "inst"});
  link.connect("ws://127.0.0.1:" + std::to_string(host.port()) + "/agent", 5s);
  server.join();

  host.send_raw("\xff\xff garbage");
  v1::Envelope answer = host.read();
  ASSERT_TRUE(answer.has_error());
  EXPECT_EQ(answer.error().code(), v1::ERROR_UNDECODABLE);
  EXPECT_NE(answer.error().message().find("do not decode"), std::string::npos)
      << answer.error().message();
  EXPECT_EQ(answer.agent_id(), "box");

  v1::Envelope future;
  future.set_protocol_version(kProtocolVersion + 1);
  future.mutable_ping();
  host.send_raw(encode_envelope(future));
  answer = host.read();
  ASSERT_TRUE(answer.has_error());
  EXPECT_EQ(answer.error().code(), v1::ERROR_UNSUPPORTED_VERSION);

  // Still up: a good command gets through.
  v1::Envelope ping;
  ping.set_protocol_version(kProtocolVersion);
  ping.mutable_ping();
  host.send_raw(encode_envelope(ping));
  auto cmd = link.next_command(5s);
  ASSERT_TRUE(cmd);
  EXPECT_TRUE(cmd->has_ping());
  EXPECT_FALSE(link.closed());

  std::thread closer([&] { host.read_until_closed(); });
  const auto t0 = std::chrono::steady_clock::now();
  link.close();
  closer.join();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 2s);  // a clean close handshake
}

// ws:// (serve --insecure, lab on loopback) carries the token the same way;
// without one there is no Authorization header at all.
TEST(HostLink, PlainWebSocketSendsTheTokenToo) {
  for (const std::string token : {"tok-1", ""}) {
    FakeHost host;
    std::thread server([&] { host.accept(); });
    HostLink link(AgentIdentity{"box", "boot", "inst"});
    link.connect("ws://127.0.0.1:" + std::to_string(host.port()) + "/agent", 5s,
                 LinkSecurity{token, ""});
    server.join();
    EXPECT_EQ(host.authorization, token.empty() ? "" : "Bearer " + token);
    std::thread closer([&] { host.read_until_closed(); });
    link.close();
    closer.join();
  }
}

// Threads sending at once (the sampler's Samples beside the runner's
// results) still put their envelopes on the wire in seq order: the host
// refuses a seq not above the last one on a connection.
TEST(HostLink, ConcurrentSendsReachTheWireInSeqOrder) {
  FakeHost host;
  std::thread server([&] { host.accept(); });
  HostLink link(AgentIdentity{"box", "boot", "inst"});
  link.connect("ws://127.0.0.1:" + std::to_string(host.port()) + "/agent", 5s);
  server.join();
  constexpr int kThreads = 4;
  constexpr int kEach = 500;
  std::vector<std::thread> senders;
  for (int t = 0; t < kThreads; ++t) {
    senders.emplace_back([&link] {
      for (int i = 0; i < kEach; ++i) {
        v1::Envelope env;
        env.mutable_log()->set_message("line");
        link.send(std::move(env));
      }
    });
  }
  std::uint64_t last = 0;
  int out_of_order = 0;
  for (int i = 0; i < kThreads * kEach; ++i) {
    const std::uint64_t seq = host.read().seq();
    if (seq != last + 1) ++out_of_order;
    last = seq;
  }
  for (auto& t : senders) t.join();
  EXPECT_EQ(out_of_order, 0);
  EXPECT_EQ(last, static_cast<std::uint64_t>(kThreads * kEach));
  std::thread closer([&] { host.read_until_closed(); });
  link.close();
  closer.join();
}

// A host that takes the connection and then never reads again: the agent's
// close (at exit) gives up after its close timeout instead of hanging.
TEST(HostLink, CloseDoesNotHangOnAHostThatNeverAnswers) {
  FakeHost host;
  std::thread server([&] { host.accept(); });
  HostLink link(AgentIdentity{"box", "boot", "inst"});
  link.connect("ws://127.0.0.1:" + std::to_string(host.port()) + "/agent", 5s);
  server.join();
  const auto t0 = std::chrono::steady_clock::now();
  link.close();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 8s);
  EXPECT_TRUE(link.closed());
}

// Waits up to `limit` for the link to close; true when it did.
bool closes_within(const HostLink& link, std::chrono::milliseconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (!link.closed() && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(10ms);
  return link.closed();
}

// A host that goes silent (a black-hole proxy): after the silence limit the
// link closes as lost, naming the silence; the runner's abort flag stays down (a
// dropped link no longer stops a run: the uplink reconnects and replays).
TEST(HostLink, ASilentHostIsLostAfterTheSilenceLimit) {
  FakeHost host;
  std::thread server([&] { host.accept(); });
  HostLink link(AgentIdentity{"box", "boot", "inst"});
  const auto t0 = std::chrono::steady_clock::now();
  link.connect("ws://127.0.0.1:" + std::to_string(host.port()) + "/agent", 5s, {}, 300ms);
  server.join();
  EXPECT_FALSE(closes_within(link, 200ms));
  ASSERT_TRUE(closes_within(link, 3s));
  EXPECT_GE(std::chrono::steady_clock::now() - t0, 300ms);
  EXPECT_EQ(link.close_reason(), "nothing from the host for 0.3 s");
  EXPECT_FALSE(link.closed_cleanly());
  EXPECT_FALSE(link.refused());
  EXPECT_FALSE(link.abort_flag().load());
}

// Pings alone keep the link up (an idle host between runs); once they stop
// the silence limit counts from the last one.
TEST(HostLink, PingsFromTheHostKeepTheLinkUp) {
  FakeHost host;
  std::thread server([&] { host.accept(); });
  HostLink link(AgentIdentity{"box", "boot", "inst"});
  link.connect("ws://127.0.0.1:" + std::to_string(host.port()) + "/agent", 5s, {}, 400ms);
  server.join();
  for (int i = 0; i < 12; ++i) {
    host.ping();
    std::this_thread::sleep_for(100ms);
  }
  EXPECT_FALSE(link.closed()) << link.close_reason();
  ASSERT_TRUE(closes_within(link, 3s));
  EXPECT_EQ(link.close_reason(), "nothing from the host for 0.4 s");
}

// LinkError carries its kind (common/error.h), so exit codes never read
// its text: a host nobody answers for is unreachable (exit 3), a malformed
// URL is bad usage (exit 2), and sending on a closed link is unreachable.
TEST(HostLink, ErrorsCarryTheirKind) {
  unsigned short dead_port;
  {
    FakeHost gone;  // a port that was just free: nobody listens there now
    dead_port = gone.port();
  }
  HostLink link(AgentIdentity{"box", "boot", "inst"});
  try {
    link.connect("ws://127.0.0.1:" + std::to_string(dead_port) + "/agent", 2s);
    FAIL() << "expected LinkError";
  } catch (const LinkError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUnreachable) << e.what();
    EXPECT_EQ(e.exit_code(), kExitUnreachable);
  }
  try {
    link.connect("http://127.0.0.1/agent", 2s);
    FAIL() << "expected LinkError";
  } catch (const LinkError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage) << e.what();
  }
  link.close();
  try {
    link.send(v1::Envelope{});
    FAIL() << "expected LinkError";
  } catch (const LinkError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUnreachable) << e.what();
  }
}

}  // namespace
}  // namespace schedrig::link

namespace schedrig::link {
namespace {

// How the host ended the link decides whether `connect` succeeded: only a
// normal close (1000) is clean; 1008 (a session rule broken) is the host
// refusing the agent; 1011 (the collector could not store) is a lost link.
void expect_close(websocket::close_code code, bool clean, bool refused) {
  FakeHost host;
  std::thread server([&] { host.accept(); });
  HostLink link(AgentIdentity{"box", "boot", "inst"});
  link.connect("ws://127.0.0.1:" + std::to_string(host.port()) + "/agent", 5s);
  server.join();
  EXPECT_FALSE(link.closed_cleanly());  // open
  std::thread closer([&] { host.close_with(code); });
  EXPECT_FALSE(link.next_command(5s));
  closer.join();
  EXPECT_TRUE(link.closed());
  EXPECT_EQ(link.closed_cleanly(), clean) << link.close_reason();
  EXPECT_EQ(link.refused(), refused) << link.close_reason();
  EXPECT_NE(link.close_reason().find(std::to_string(static_cast<int>(code))), std::string::npos)
      << link.close_reason();
}

TEST(HostLink, ANormalCloseIsCleanA1008IsARefusalAndAnInternalErrorIsNeither) {
  expect_close(websocket::close_code::normal, true, false);
  expect_close(websocket::close_code::policy_error, false, true);
  expect_close(websocket::close_code::internal_error, false, false);
}

}  // namespace
}  // namespace schedrig::link
