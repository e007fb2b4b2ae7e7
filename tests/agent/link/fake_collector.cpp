#include "tests/agent/link/fake_collector.h"

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <thread>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "common/envelope_codec.h"

namespace schedrig::testing {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = asio::ip::tcp;
namespace v1 = schedrig::v1;

v1::Envelope ack_of(const std::string& instance_id, std::uint64_t seq) {
  v1::Envelope env;
  env.set_protocol_version(kProtocolVersion);
  env.mutable_ack()->set_instance_id(instance_id);
  env.mutable_ack()->set_seq(seq);
  return env;
}

}  // namespace

// One accepted connection; everything runs on the collector's one thread.
struct Conn : std::enable_shared_from_this<Conn> {
  explicit Conn(tcp::socket s) : ws(std::move(s)) {}
  websocket::stream<beast::tcp_stream> ws;
  beast::flat_buffer buf;
  http::request<http::string_body> req;
  std::deque<std::string> out;
  std::map<std::string, std::uint64_t> highest;  // instance -> highest seq received
  int index = 0;
  bool open = false;

  void write(const v1::Envelope& env) {
    if (!open) return;
    out.push_back(encode_envelope(env));
    if (out.size() == 1) flush();
  }
  void flush() {
    ws.async_write(asio::buffer(out.front()),
                   [self = shared_from_this()](beast::error_code ec, std::size_t) {
                     if (ec) return;
                     self->out.pop_front();
                     if (!self->out.empty()) self->flush();
                   });
  }
  void reset() {
    open = false;
    beast::error_code ignored;
    ws.next_layer().socket().set_option(asio::socket_base::linger(true, 0), ignored);
    ws.next_layer().socket().close(ignored);
  }
};

class FakeCollector::Impl {
 public:
  explicit Impl(unsigned short port) : acceptor_(ioc_) {
    const tcp::endpoint ep(asio::ip::make_address("127.0.0.1"), port);
    acceptor_.open(ep.protocol());
    acceptor_.set_option(asio::socket_base::reuse_address(true));
    acceptor_.bind(ep);
    acceptor_.listen();
    accept();
    thread_ = std::thread([this] { ioc_.run(); });
  }
  ~Impl() {
    asio::post(ioc_, [this] {
      beast::error_code ignored;
      acceptor_.close(ignored);
      for (auto& c : conns_) c->reset();
      ioc_.stop();
    });
    thread_.join();
  }

  void accept() {
    acceptor_.async_accept([this](beast::error_code ec, tcp::socket s) {
      if (ec) return;
      auto c = std::make_shared<Conn>(std::move(s));
      c->index = static_cast<int>(conns_.size()) + 1;
      conns_.push_back(c);
      http::async_read(c->ws.next_layer(), c->buf, c->req,
                       [this, c](beast::error_code e, std::size_t) {
                         if (e) return;
                         c->ws.binary(true);
                         c->ws.async_accept(c->req, [this, c](beast::error_code e2) {
                           if (e2) return;
                           c->open = true;
                           read(c);
                         });
                       });
      accept();
    });
  }

  void read(const std::shared_ptr<Conn>& c) {
    c->buf.clear();
    c->ws.async_read(c->buf, [this, c](beast::error_code ec, std::size_t) {
      if (ec) {
        c->open = false;
        return;
      }
      DecodeResult r = decode_envelope(beast::buffers_to_string(c->buf.data()));
      if (r.envelope) take(c, std::move(*r.envelope));
      read(c);
    });
  }

  void take(const std::shared_ptr<Conn>& c, v1::Envelope env) {
    auto& high = c->highest[env.instance_id()];
    high = std::max<std::uint64_t>(high, env.seq());
    const v1::Envelope ack = ack_of(env.instance_id(), env.seq());
    {
      std::lock_guard lock(mu_);
      got_.push_back({c->index, std::string(c->req.target()), std::move(env)});
      cv_.notify_all();
    }
    if (acking_) c->write(ack);
  }

  void on_thread(std::function<void()> f) { asio::post(ioc_, std::move(f)); }

  asio::io_context ioc_;
  tcp::acceptor acceptor_;
  std::vector<std::shared_ptr<Conn>> conns_;  // collector thread only
  bool acking_ = true;                        // collector thread only
  mutable std::mutex mu_;
  mutable std::condition_variable cv_;
  std::vector<Received> got_;
  std::thread thread_;
};

FakeCollector::FakeCollector(unsigned short port) : impl_(std::make_unique<Impl>(port)) {}
FakeCollector::~FakeCollector() = default;

unsigned short FakeCollector::port() const { return impl_->acceptor_.local_endpoint().port(); }
std::string FakeCollector::url() const {
  return "ws://127.0.0.1:" + std::to_string(port()) + "/agent";
}

void FakeCollector::set_acking(bool on) {
  impl_->on_thread([this, on] { impl_->acking_ = on; });
}

void FakeCollector::ack_all() {
  impl_->on_thread([this] {
    for (auto& c : impl_->conns_)
      for (const auto& [instance, seq] : c->highest) c->write(ack_of(instance, seq));
  });
}

void FakeCollector::cut() {
  impl_->on_thread([this] {
    for (auto& c : impl_->conns_)
      if (c->open) c->reset();
  });
}

void FakeCollector::close_all(websocket::close_code code) {
  impl_->on_thread([this, code] {
    for (auto& c : impl_->conns_) {
      if (!c->open) continue;
      c->open = false;
      c->ws.async_close(code, [c](beast::error_code) {});
    }
  });
}

void FakeCollector::send(v1::Envelope env) {
  impl_->on_thread([this, env = std::move(env)] {
    if (!impl_->conns_.empty()) impl_->conns_.back()->write(env);
  });
}

std::vector<Received> FakeCollector::received() const {
  std::lock_guard lock(impl_->mu_);
  return impl_->got_;
}

bool FakeCollector::wait_for(const std::function<bool(const std::vector<Received>&)>& done,
                             std::chrono::milliseconds timeout) const {
  std::unique_lock lock(impl_->mu_);
  return impl_->cv_.wait_for(lock, timeout, [&] { return done(impl_->got_); });
}

unsigned short free_port() {
  asio::io_context ioc;
  tcp::acceptor a(ioc, tcp::endpoint(asio::ip::make_address("127.0.0.1"), 0));
  return a.local_endpoint().port();
}

}  // namespace schedrig::testing
