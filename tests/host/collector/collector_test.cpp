// The collector over real WebSockets on loopback: storing and acking, bad
// frames answered with Error while other agents carry on, oversize frames
// closed with 1009, and the agent's HostLink against it.
#include "host/collector/collector.h"

#include <thread>

#include <gtest/gtest.h>
#include <boost/asio/connect.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>

#include "agent/link/host_link.h"
#include "common/envelope_codec.h"

namespace schedrig::collector {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
using namespace std::chrono_literals;
namespace v1 = schedrig::v1;

// A collector on 127.0.0.1:<ephemeral> with an in-memory store, on its own thread.
class CollectorFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    collector_ = std::make_unique<Collector>(
        ioc_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0), store_, events_);
    collector_->start();
    thread_ = std::thread([this] { ioc_.run(); });
  }
  void TearDown() override {
    collector_->stop();
    work_.reset();
    ioc_.stop();
    thread_.join();
  }
  unsigned short port() const { return collector_->local_endpoint().port(); }

  store::Store store_{":memory:"};
  CollectorEvents events_;
  asio::io_context ioc_;
  std::optional<asio::executor_work_guard<asio::io_context::executor_type>> work_{
      ioc_.get_executor()};
  std::unique_ptr<Collector> collector_;
  std::thread thread_;
};

// A bare synchronous WebSocket client, as a misbehaving agent would be.
class RawClient {
 public:
  explicit RawClient(unsigned short port, const std::string& target = "/agent") : ws_(ioc_) {
    tcp::resolver resolver(ioc_);
    asio::connect(ws_.next_layer(), resolver.resolve("127.0.0.1", std::to_string(port)));
    ws_.binary(true);
    ws_.read_message_max(64 << 20);
    ws_.handshake("127.0.0.1", target);
  }
  void send_bytes(const std::string& bytes) { ws_.write(asio::buffer(bytes)); }
  v1::Envelope read() {
    beast::flat_buffer buf;
    ws_.read(buf);
    auto r = decode_envelope(beast::buffers_to_string(buf.data()));
    EXPECT_TRUE(r.envelope) << r.error;
    return r.envelope.value_or(v1::Envelope{});
  }
  websocket::stream<tcp::socket>& ws() { return ws_; }

 private:
  asio::io_context ioc_;
  websocket::stream<tcp::socket> ws_;
};

v1::Envelope hello(const std::string& agent, std::uint64_t seq) {
  v1::Envelope env;
  env.set_protocol_version(kProtocolVersion);
  env.set_agent_id(agent);
  env.set_instance_id("inst-" + agent);
  env.set_boot_id("boot");
  env.set_seq(seq);
  env.mutable_hello()->set_hostname(agent + ".lab");
  return env;
}

TEST_F(CollectorFixture, StoresAndAcksAnEnvelope) {
  RawClient c(port());
  c.send_bytes(encode_envelope(hello("a1", 1)));
  v1::Envelope ack = c.read();
  ASSERT_TRUE(ack.has_ack());
  EXPECT_EQ(ack.ack().instance_id(), "inst-a1");
  EXPECT_EQ(ack.ack().seq(), 1u);
}

TEST_F(CollectorFixture, RepeatIsAckedButStoredOnce) {
  RawClient c(port());
  c.send_bytes(encode_envelope(hello("a1", 1)));
  EXPECT_TRUE(c.read().has_ack());
  EXPECT_EQ(store_.ingest(hello("a1", 1), encode_envelope(hello("a1", 1))),
            store::Store::Ingest::kDuplicate);
  c.send_bytes(encode_envelope(hello("a1", 1)));
  v1::Envelope ack = c.read();
  ASSERT_TRUE(ack.has_ack());
  EXPECT_EQ(ack.ack().seq(), 1u);
}

TEST_F(CollectorFixture, GarbageGetsAnErrorAndEveryoneCarriesOn) {
  RawClient bad(port());
  RawClient good(port());
  bad.send_bytes(std::string("\xff\xff\xff\xff garbage \x01\x02", 16));
  v1::Envelope err = bad.read();
  ASSERT_TRUE(err.has_error());
  EXPECT_EQ(err.error().code(), v1::ERROR_UNDECODABLE);
  EXPECT_NE(err.error().message().find("do not decode"), std::string::npos)
      << err.error().message();
  // The other agent is served...
  good.send_bytes(encode_envelope(hello("good", 1)));
  EXPECT_TRUE(good.read().has_ack());
  // ...and so is the one that sent garbage.
  bad.send_bytes(encode_envelope(hello("bad", 1)));
  EXPECT_TRUE(bad.read().has_ack());
}

TEST_F(CollectorFixture, WrongVersionAndMissingIdsGetErrors) {
  RawClient c(port());
  v1::Envelope env = hello("a1", 1);
  env.set_protocol_version(9);
  c.send_bytes(encode_envelope(env));
  v1::Envelope err = c.read();
  ASSERT_TRUE(err.has_error());
  EXPECT_EQ(err.error().code(), v1::ERROR_UNSUPPORTED_VERSION);
  env = hello("a1", 0);  // seq 0 is never valid agent->host
  c.send_bytes(encode_envelope(env));
  err = c.read();
  ASSERT_TRUE(err.has_error());
  EXPECT_EQ(err.error().code(), v1::ERROR_UNEXPECTED);
}

TEST_F(CollectorFixture, OversizeMessageIsClosedWith1009) {
  RawClient c(port());
  c.send_bytes(std::string(kMaxEnvelopeBytes + 1, 'x'));
  beast::flat_buffer buf;
  beast::error_code ec;
  c.ws().read(buf, ec);
  EXPECT_EQ(ec, websocket::error::closed) << ec.message();
  EXPECT_EQ(c.ws().reason().code, websocket::close_code::too_big);
  // The collector still accepts new agents.
  RawClient next(port());
  next.send_bytes(encode_envelope(hello("next", 1)));
  EXPECT_TRUE(next.read().has_ack());
}

TEST_F(CollectorFixture, PlainHttpOnOtherPathsIsRefused) {
  EXPECT_THROW(RawClient(port(), "/metrics"), boost::system::system_error);
}

TEST_F(CollectorFixture, HostLinkSendsAndIsAcked) {
  link::HostLink link({"agent-x", "boot-x", "instance-x"});
  link.connect("ws://127.0.0.1:" + std::to_string(port()) + "/agent", 5s);
  v1::Envelope env;
  env.mutable_hello()->set_hostname("x");
  std::uint64_t s1 = link.send(env);
  std::uint64_t s2 = link.send(env);
  EXPECT_EQ(s1, 1u);
  EXPECT_EQ(s2, 2u);
  EXPECT_TRUE(link.wait_acked(s2, 5s));
  EXPECT_EQ(link.acked_seq(), 2u);
  link.close();
  EXPECT_TRUE(link.closed());
}

TEST(HostLink, UnreachableHostNamesTheUrl) {
  // Port 1 on loopback: nothing listens there.
  link::HostLink link({"a", "b", "c"});
  try {
    link.connect("ws://127.0.0.1:1/agent", 2s);
    FAIL() << "expected LinkError";
  } catch (const link::LinkError& e) {
    EXPECT_NE(std::string(e.what()).find("ws://127.0.0.1:1/agent"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("refused"), std::string::npos) << e.what();
  }
}

TEST(ListenAddress, ParsesAndRefuses) {
  EXPECT_EQ(parse_listen_address("127.0.0.1:7878").port(), 7878);
  EXPECT_TRUE(parse_listen_address("[::1]:0").address().is_v6());
  EXPECT_THROW(parse_listen_address("localhost"), CollectorError);
  EXPECT_THROW(parse_listen_address("127.0.0.1:99999"), CollectorError);
  EXPECT_THROW(parse_listen_address("nohost:80"), CollectorError);
}

// The kind, not the text, says bad input (exit 2) from an unusable address (exit 3).
TEST(ListenAddress, KindTellsBadTextFromAnAddressInUse) {
  try {
    parse_listen_address("localhost");
    FAIL() << "expected CollectorError";
  } catch (const CollectorError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_EQ(e.exit_code(), kExitUsage);
  }
  store::Store store(":memory:");
  CollectorEvents events;
  boost::asio::io_context ioc;
  Collector first(ioc, parse_listen_address("127.0.0.1:0"), store, events);
  try {
    Collector second(ioc, first.local_endpoint(), store, events);
    FAIL() << "expected CollectorError";
  } catch (const CollectorError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUnreachable);
    EXPECT_EQ(e.exit_code(), kExitUnreachable);
  }
}

}  // namespace
}  // namespace schedrig::collector
