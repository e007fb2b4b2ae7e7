#include "tests/support/tcp_proxy.h"

#include <fcntl.h>

#include <array>
#include <atomic>
#include <functional>
#include <future>
#include <set>
#include <thread>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>

namespace schedrig::testing {
namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using boost::system::error_code;

// Asio opens sockets without FD_CLOEXEC: a child the test spawns later
// (serve, an agent) would inherit the proxy's sockets and keep them open
// past cut() and past the other side's end, so nothing would reach the peer.
void close_on_exec(tcp::socket& s) {
  const int fd = s.native_handle();
  ::fcntl(fd, F_SETFD, ::fcntl(fd, F_GETFD) | FD_CLOEXEC);
}

// Closes `s` with a reset rather than a FIN (SO_LINGER on, 0 s).
void reset_socket(tcp::socket& s) {
  error_code ec;
  s.set_option(asio::socket_base::linger(true, 0), ec);
  s.close(ec);
}

// One direction of a connection: bytes read from `from` are written to `to`
// before the next read, so at most one buffer is in flight.
struct Pump {
  tcp::socket* from = nullptr;
  tcp::socket* to = nullptr;
  std::array<char, 16384> buf{};
  std::size_t pending = 0;  // read, not yet written
  bool parked = false;      // stopped by the blackhole
};

class Link;
using Links = std::set<std::shared_ptr<Link>>;

// One accepted client and its connection to the target. Runs on the proxy's
// one I/O thread; `blackhole` and `links` are the proxy's, read there too.
class Link : public std::enable_shared_from_this<Link> {
 public:
  Link(tcp::socket client, const bool& blackhole, Links& links)
      : client_(std::move(client)),
        upstream_(client_.get_executor()),
        blackhole_(blackhole),
        links_(links) {
    up_.from = &client_;
    up_.to = &upstream_;
    down_.from = &upstream_;
    down_.to = &client_;
  }

  void start(const tcp::endpoint& target) {
    upstream_.async_connect(target, [self = shared_from_this()](const error_code& ec) {
      if (ec) return self->reset();
      close_on_exec(self->upstream_);
      self->read(self->up_);
      self->read(self->down_);
    });
  }

  // Forwarding resumes where the blackhole parked each direction.
  void resume() {
    for (Pump* p : {&up_, &down_}) {
      if (!p->parked) continue;
      p->parked = false;
      p->pending ? write(*p) : read(*p);
    }
  }

  // Both sockets reset; the link is forgotten.
  void reset() {
    reset_socket(client_);
    reset_socket(upstream_);
    forget();
  }

 private:
  void read(Pump& p) {
    if (blackhole_) {
      p.parked = true;
      return;
    }
    p.from->async_read_some(asio::buffer(p.buf),
                            [self = shared_from_this(), &p](const error_code& ec, std::size_t n) {
                              if (ec) return self->end(ec);
                              p.pending = n;
                              self->write(p);
                            });
  }

  void write(Pump& p) {
    if (blackhole_) {
      p.parked = true;
      return;
    }
    asio::async_write(*p.to, asio::buffer(p.buf.data(), p.pending),
                      [self = shared_from_this(), &p](const error_code& ec, std::size_t) {
                        if (ec) return self->end(ec);
                        p.pending = 0;
                        self->read(p);
                      });
  }

  // One side ended: a clean end (EOF) closes both sides cleanly, anything
  // else (a reset) resets both, so each peer sees what the other did.
  void end(const error_code& ec) {
    if (!client_.is_open() && !upstream_.is_open()) return;
    if (ec != asio::error::eof) return reset();
    error_code ignored;
    client_.close(ignored);
    upstream_.close(ignored);
    forget();
  }

  void forget() { links_.erase(shared_from_this()); }

  tcp::socket client_, upstream_;
  Pump up_, down_;
  const bool& blackhole_;
  Links& links_;
};

}  // namespace

struct TcpProxy::Impl {
  asio::io_context ioc;
  tcp::acceptor acceptor{ioc, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0)};
  tcp::endpoint target;
  unsigned short port = acceptor.local_endpoint().port();
  bool blackhole = false;  // I/O thread only
  Links links;             // I/O thread only
  std::atomic<std::size_t> accepted{0};
  std::thread thread;

  void accept() {
    acceptor.async_accept([this](const error_code& ec, tcp::socket s) {
      if (ec == asio::error::operation_aborted || !acceptor.is_open()) return;
      if (!ec) {
        close_on_exec(s);  // else serve and agents spawned later keep it open
        ++accepted;
        auto link = std::make_shared<Link>(std::move(s), blackhole, links);
        links.insert(link);
        link->start(target);
      }
      accept();
    });
  }

  // Runs `f` on the I/O thread and waits for it.
  void on_io(std::function<void()> f) {
    std::promise<void> done;
    asio::post(ioc, [&] {
      f();
      done.set_value();
    });
    done.get_future().wait();
  }

  void reset_all() {
    const Links now = links;  // reset() erases from `links`
    for (const auto& l : now) l->reset();
  }
};

TcpProxy::TcpProxy(unsigned short target_port) : impl_(std::make_unique<Impl>()) {
  impl_->target = tcp::endpoint(asio::ip::make_address("127.0.0.1"), target_port);
  impl_->accept();
  impl_->thread = std::thread([this] { impl_->ioc.run(); });
}

TcpProxy::~TcpProxy() {
  impl_->on_io([this] {
    error_code ec;
    impl_->acceptor.close(ec);
    impl_->reset_all();
  });
  impl_->ioc.stop();
  impl_->thread.join();
}

unsigned short TcpProxy::port() const { return impl_->port; }

void TcpProxy::cut() {
  impl_->on_io([this] { impl_->reset_all(); });
}

void TcpProxy::set_blackhole(bool on) {
  impl_->on_io([this, on] {
    impl_->blackhole = on;
    if (on) return;
    const Links now = impl_->links;
    for (const auto& l : now) l->resume();
  });
}

std::size_t TcpProxy::accepted() const { return impl_->accepted; }

}  // namespace schedrig::testing
