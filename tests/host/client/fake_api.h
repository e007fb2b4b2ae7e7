// A stand-in for `schedrig serve`'s HTTP API in tests: Beast on loopback, one
// thread, one connection at a time, answers from the test's handler
// (canned JSON in the API's shapes, docs/architecture.md "HTTP API"), every
// request kept for the test to check. Plain HTTP, or TLS with a given context.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

namespace schedrig::testing {

struct FakeRequest {
  std::string method;         // "GET", "POST"
  std::string target;         // path and query
  std::string authorization;  // the header as sent
  std::string body;
};

struct FakeAnswer {
  unsigned status = 200;
  std::string body;
};

class FakeApi {
 public:
  using Handler = std::function<FakeAnswer(const FakeRequest&)>;

  // Listens on `address`:<ephemeral> (any loopback address) and serves until destroyed.
  explicit FakeApi(Handler handler, std::shared_ptr<boost::asio::ssl::context> tls = nullptr,
                   const std::string& address = "127.0.0.1")
      : handler_(std::move(handler)),
        tls_(std::move(tls)),
        acceptor_(ioc_, {boost::asio::ip::make_address(address), 0}) {
    thread_ = std::thread([this] { serve(); });
  }

  ~FakeApi() {
    stop_ = true;
    boost::system::error_code ignored;
    boost::asio::ip::tcp::socket wake(ioc_);
    wake.connect(acceptor_.local_endpoint(), ignored);  // unblocks accept()
    thread_.join();
  }

  unsigned short port() const { return acceptor_.local_endpoint().port(); }
  std::string url() const {
    return std::string(tls_ ? "https" : "http") + "://" +
           acceptor_.local_endpoint().address().to_string() + ":" + std::to_string(port());
  }

  std::vector<FakeRequest> requests() const {
    std::lock_guard lock(mu_);
    return requests_;
  }

 private:
  void serve() {
    while (!stop_) {
      boost::asio::ip::tcp::socket socket(ioc_);
      boost::system::error_code ec;
      acceptor_.accept(socket, ec);
      if (ec || stop_) continue;
      if (!tls_) {
        boost::beast::tcp_stream stream(std::move(socket));
        exchange(stream);
        continue;
      }
      boost::beast::ssl_stream<boost::beast::tcp_stream> stream(std::move(socket), *tls_);
      stream.handshake(boost::asio::ssl::stream_base::server, ec);
      if (!ec) exchange(stream);
    }
  }

  // Answers requests on one connection until the client closes it.
  template <class Stream>
  void exchange(Stream& stream) {
    namespace http = boost::beast::http;
    boost::beast::flat_buffer buffer;
    for (;;) {
      http::request<http::string_body> req;
      boost::system::error_code ec;
      http::read(stream, buffer, req, ec);
      if (ec) return;
      FakeRequest r{std::string(req.method_string()), std::string(req.target()),
                    std::string(req[http::field::authorization]), req.body()};
      {
        std::lock_guard lock(mu_);
        requests_.push_back(r);
      }
      const FakeAnswer a = handler_(r);
      http::response<http::string_body> res(static_cast<http::status>(a.status), 11);
      res.set(http::field::content_type, "application/json");
      res.body() = a.body;
      res.keep_alive(req.keep_alive());
      res.prepare_payload();
      http::write(stream, res, ec);
      if (ec || !req.keep_alive()) return;
    }
  }

  Handler handler_;
  std::shared_ptr<boost::asio::ssl::context> tls_;
  boost::asio::io_context ioc_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::atomic<bool> stop_{false};
  mutable std::mutex mu_;
  std::vector<FakeRequest> requests_;
  std::thread thread_;
};

}  // namespace schedrig::testing
