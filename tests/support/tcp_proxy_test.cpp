// TcpProxy (tests/support/tcp_proxy.h) against a tiny echo server: bytes
// both ways, cut() resets the client and the next connection works,
// a blackhole holds bytes without closing and lets them through once lifted,
// a target that is down resets the client.
#include "tests/support/tcp_proxy.h"

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <thread>

#include <boost/asio/read.hpp>

#include <gtest/gtest.h>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>

namespace schedrig::testing {
namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using namespace std::chrono_literals;

// Echoes every byte back on each connection, on its own thread.
class EchoServer {
 public:
  EchoServer() {
    accept();
    thread_ = std::thread([this] { ioc_.run(); });
  }
  ~EchoServer() {
    ioc_.stop();
    thread_.join();
  }
  unsigned short port() const { return port_; }

 private:
  struct Conn : std::enable_shared_from_this<Conn> {
    explicit Conn(tcp::socket s) : sock(std::move(s)) {}
    void read() {
      sock.async_read_some(asio::buffer(buf), [self = shared_from_this()](auto ec, std::size_t n) {
        if (ec) return;
        asio::async_write(self->sock, asio::buffer(self->buf.data(), n),
                          [self](auto ec2, std::size_t) {
                            if (!ec2) self->read();
                          });
      });
    }
    tcp::socket sock;
    std::array<char, 4096> buf{};
  };
  void accept() {
    acceptor_.async_accept([this](auto ec, tcp::socket s) {
      if (ec) return;
      std::make_shared<Conn>(std::move(s))->read();
      accept();
    });
  }
  asio::io_context ioc_;
  tcp::acceptor acceptor_{ioc_, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)};
  unsigned short port_ = acceptor_.local_endpoint().port();
  std::thread thread_;
};

// A plain blocking client socket on 127.0.0.1:`port` (POSIX, so reads can
// be bounded in time with poll).
class Client {
 public:
  explicit Client(unsigned short port) : fd_(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0)) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  }
  ~Client() { ::close(fd_); }
  bool connected() const { return connected_; }
  bool send(const std::string& s) {
    return ::send(fd_, s.data(), s.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(s.size());
  }
  // What arrives within `limit` until `want` bytes came; errno_ tells why a
  // read ended early (ECONNRESET; 0 for EOF or the time limit).
  std::string receive(std::size_t want, std::chrono::milliseconds limit) {
    std::string got;
    const auto until = std::chrono::steady_clock::now() + limit;
    error = 0;
    while (got.size() < want) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          until - std::chrono::steady_clock::now());
      pollfd p{fd_, POLLIN, 0};
      if (left.count() <= 0 || ::poll(&p, 1, static_cast<int>(left.count())) <= 0) break;
      char buf[4096];
      const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
      if (n <= 0) {
        error = n < 0 ? errno : 0;
        eof = n == 0;
        break;
      }
      got.append(buf, static_cast<std::size_t>(n));
    }
    return got;
  }
  int error = 0;
  bool eof = false;

 private:
  int fd_;
  bool connected_ = false;
};

TEST(TcpProxy, ForwardsBytesBothWays) {
  EchoServer echo;
  TcpProxy proxy(echo.port());
  EXPECT_NE(proxy.port(), echo.port());
  Client c(proxy.port());
  ASSERT_TRUE(c.connected());
  const std::string big(100000, 'x');
  ASSERT_TRUE(c.send("hello " + big));
  EXPECT_EQ(c.receive(6 + big.size(), 5s), "hello " + big);
  EXPECT_EQ(proxy.accepted(), 1u);
}

TEST(TcpProxy, CutResetsEveryConnectionAndKeepsAccepting) {
  EchoServer echo;
  TcpProxy proxy(echo.port());
  Client a(proxy.port()), b(proxy.port());
  ASSERT_TRUE(a.send("a"));
  ASSERT_TRUE(b.send("b"));
  ASSERT_EQ(a.receive(1, 5s), "a");
  ASSERT_EQ(b.receive(1, 5s), "b");
  proxy.cut();
  for (Client* c : {&a, &b}) {
    EXPECT_EQ(c->receive(1, 5s), "");
    EXPECT_EQ(c->error, ECONNRESET) << "a reset, not a clean close (eof " << c->eof << ")";
  }
  Client again(proxy.port());
  ASSERT_TRUE(again.send("again"));
  EXPECT_EQ(again.receive(5, 5s), "again");
  EXPECT_EQ(proxy.accepted(), 3u);
}

TEST(TcpProxy, BlackholeHoldsBytesWithoutClosingThenLetsThemThrough) {
  EchoServer echo;
  TcpProxy proxy(echo.port());
  Client c(proxy.port());
  ASSERT_TRUE(c.send("before"));
  ASSERT_EQ(c.receive(6, 5s), "before");
  proxy.set_blackhole(true);
  ASSERT_TRUE(c.send("during"));
  EXPECT_EQ(c.receive(6, 500ms), "");
  EXPECT_EQ(c.error, 0);
  EXPECT_FALSE(c.eof) << "the blackhole closed the connection";
  // A connection made during the blackhole is accepted and passes nothing either.
  Client late(proxy.port());
  ASSERT_TRUE(late.send("late"));
  EXPECT_EQ(late.receive(4, 300ms), "");
  proxy.set_blackhole(false);
  EXPECT_EQ(c.receive(6, 5s), "during");
  EXPECT_EQ(late.receive(4, 5s), "late");
}

TEST(TcpProxy, ATargetThatIsDownResetsTheClient) {
  unsigned short dead_port = 0;
  {
    EchoServer gone;  // a port nothing listens on once it is destroyed
    dead_port = gone.port();
  }
  TcpProxy proxy(dead_port);
  Client c(proxy.port());
  ASSERT_TRUE(c.connected());  // the proxy accepts, then cannot reach the target
  EXPECT_EQ(c.receive(1, 5s), "");
  EXPECT_EQ(c.error, ECONNRESET);
}

}  // namespace
}  // namespace schedrig::testing

namespace schedrig::testing {
namespace {

// The target going away (a killed serve) ends the client's connection too.
TEST(TcpProxy, ATargetThatClosesEndsTheClient) {
  asio::io_context ioc;
  tcp::acceptor acceptor(ioc, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  TcpProxy proxy(acceptor.local_endpoint().port());
  Client c(proxy.port());
  ASSERT_TRUE(c.connected());
  tcp::socket s = acceptor.accept();
  ASSERT_TRUE(c.send("ping"));
  std::array<char, 4> buf{};
  asio::read(s, asio::buffer(buf));
  s.close();
  EXPECT_EQ(c.receive(1, 3s), "");
  EXPECT_TRUE(c.eof || c.error != 0) << "the client still waits";
}

}  // namespace
}  // namespace schedrig::testing
