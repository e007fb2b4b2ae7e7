#include "host/client/api_client.h"

#include <atomic>
#include <functional>
#include <optional>
#include <type_traits>

#include <fmt/format.h>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include "common/error.h"
#include "common/printable.h"
#include "common/stop_signal.h"
#include "common/tls/scheme_hint.h"
#include "common/tls/server_check.h"
#include "common/tls/tls_context.h"
#include "host/client/api_error.h"
#include "host/client/transport_error.h"

namespace schedrig::client {
namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;
using TlsStream = beast::ssl_stream<beast::tcp_stream>;

// How often a request looks at the stop flag (stop_on_signals).
constexpr std::chrono::milliseconds kStopPoll{50};

// One request on `stream`: resolve, connect, (TLS handshake,) write `req`,
// read the whole answer, then `done(ec)` once. Callbacks rather than
// coroutines: clang-tidy's Boost 1.74 has no co_await with libstdc++. Runs
// inside one io_context::run of the caller, which outlives it.
template <class Stream>
class Exchange {
 public:
  using Done = std::function<void(boost::system::error_code)>;

  Exchange(asio::io_context& ioc, Stream& stream, const ServerUrl& url, const Request& req)
      : stream_(stream), url_(url), req_(req), resolver_(ioc) {
    parser_.body_limit(kMaxResponseBody);
  }

  void start(Done done) {
    done_ = std::move(done);
    resolver_.async_resolve(url_.host, url_.port, [this](auto ec, tcp::resolver::results_type eps) {
      if (ec) return done_(ec);
      beast::get_lowest_layer(stream_).async_connect(eps, [this](auto ec2, const auto&) {
        if (ec2) return done_(ec2);
        handshake();
      });
    });
  }

  Step step() const { return step_; }
  Response take() { return parser_.release(); }

 private:
  void handshake() {
    if constexpr (std::is_same_v<Stream, TlsStream>) {
      step_ = Step::kTls;
      stream_.async_handshake(ssl::stream_base::client, [this](auto ec) {
        if (ec) return done_(ec);
        write();
      });
    } else {
      write();
    }
  }

  void write() {
    step_ = Step::kExchange;
    http::async_write(stream_, req_, [this](auto ec, std::size_t) {
      if (ec) return done_(ec);
      read();
    });
  }

  // Beast 1.74 misses the body limit when the body arrives with the header
  // (its eager read): the header first, and the declared length checked.
  void read() {
    http::async_read_header(stream_, buffer_, parser_, [this](auto ec, std::size_t) {
      if (ec) return done_(ec);
      if (parser_.content_length().value_or(0) > kMaxResponseBody) {
        return done_(http::error::body_limit);
      }
      http::async_read(stream_, buffer_, parser_, [this](auto ec2, std::size_t) { done_(ec2); });
    });
  }

  Stream& stream_;
  const ServerUrl& url_;
  const Request& req_;
  tcp::resolver resolver_;
  beast::flat_buffer buffer_;
  http::response_parser<http::string_body> parser_;
  Step step_ = Step::kConnect;
  Done done_;
};

Error interrupted() { return Error(ErrorKind::kInterrupted, "interrupted"); }

}  // namespace

// One request = one io_context, so nothing of a request outlives it.
class ApiClient::Impl {
 public:
  Impl(const ServerUrl& url, const ServerTarget& target) : url_(url), ca_file_(target.ca_file) {
    if (url.tls) tls_ = tls::client_tls_context(target.ca_file);
  }

  void stop_on_signals(bool stop) { stop_ = stop ? &install_stop_signals() : nullptr; }

  Response exchange(const Request& req, std::chrono::milliseconds timeout) {
    if (stop_ && stop_->load()) throw interrupted();
    asio::io_context ioc;
    if (!tls_) {
      beast::tcp_stream stream(ioc);
      return run(ioc, stream, req, timeout);
    }
    TlsStream stream(ioc, *tls_);
    verify_failure_.clear();
    tls::check_server(stream, url_.host, &verify_failure_);
    return run(ioc, stream, req, timeout);
  }

 private:
  template <class Stream>
  Response run(asio::io_context& ioc, Stream& stream, const Request& req,
               std::chrono::milliseconds timeout) {
    auto& socket = beast::get_lowest_layer(stream);
    socket.expires_after(timeout);
    Exchange<Stream> exchange(ioc, stream, url_, req);
    std::optional<boost::system::error_code> result;
    bool stopped = false;
    asio::steady_timer poll(ioc);
    exchange.start([&](boost::system::error_code ec) {
      result = ec;
      poll.cancel();
    });
    watch_stop(poll, socket, stopped, result);
    // Resolving is not bounded by the stream's expiry: the whole run is.
    ioc.run_for(timeout + kStopPoll * 4);
    if (stopped) throw interrupted();
    if (!result || *result) {
      throw failure(exchange.step(), result.value_or(beast::error::timeout), timeout);
    }
    return exchange.take();
  }

  // Why the request failed; for http://, whether the server speaks TLS.
  Error failure(Step step, boost::system::error_code ec, std::chrono::milliseconds timeout) const {
    TransportFailure f{step, ec, timeout, verify_failure_, ca_file_};
    f.server_speaks_tls = !url_.tls && step == Step::kExchange && ec != beast::error::timeout &&
                          ec != http::error::body_limit && tls::speaks_tls(url_.host, url_.port);
    return transport_error(url_, f);
  }

  // Every kStopPoll: closes the socket when the stop flag is set; stops
  // polling once the exchange has ended.
  void watch_stop(asio::steady_timer& poll, beast::tcp_stream& socket, bool& stopped,
                  const std::optional<boost::system::error_code>& result) {
    poll.expires_after(kStopPoll);
    poll.async_wait([&, this](boost::system::error_code ec) {
      if (ec || result) return;
      if (stop_ && stop_->load()) {
        stopped = true;
        socket.close();
        return;
      }
      watch_stop(poll, socket, stopped, result);
    });
  }

  ServerUrl url_;
  std::string ca_file_;
  std::string verify_failure_;  // why the last handshake refused the certificate
  std::shared_ptr<ssl::context> tls_;
  std::atomic<bool>* stop_ = nullptr;
};

ApiClient::ApiClient(ServerTarget target)
    : target_(std::move(target)),
      url_(parse_server_url(target_.url)),
      impl_(std::make_unique<Impl>(url_, target_)) {}

ApiClient::~ApiClient() = default;

void ApiClient::stop_on_signals(bool stop) { impl_->stop_on_signals(stop); }

namespace {

Request make_request(http::verb verb, const std::string& path, const ServerUrl& url,
                     const std::string& token, std::string body) {
  Request req(verb, path, 11);
  req.set(http::field::host, url.authority());
  req.set(http::field::user_agent, "schedrig/" SCHEDRIG_VERSION);
  req.set(http::field::accept, "application/json");
  req.set(http::field::authorization, "Bearer " + token);
  if (verb == http::verb::post) {
    req.set(http::field::content_type, "application/json");
    req.body() = std::move(body);
  }
  req.prepare_payload();
  return req;
}

ApiResponse checked(const ServerUrl& url, Response r) {
  const unsigned status = r.result_int();
  if (status < 200 || status > 299) throw api_error(url.origin(), status, r.body());
  return ApiResponse{status, std::move(r.body())};
}

nlohmann::json parsed(const ServerUrl& url, const std::string& path, const ApiResponse& r) {
  nlohmann::json j = nlohmann::json::parse(r.body, nullptr, false);
  if (j.is_discarded()) {
    throw Error(ErrorKind::kFailed, fmt::format("server {}: the answer to {} is not JSON",
                                                url.origin(), printable(path)));
  }
  return j;
}

}  // namespace

ApiResponse ApiClient::get(const std::string& path, std::chrono::milliseconds timeout) {
  const Request req = make_request(http::verb::get, path, url_, target_.token, "");
  return checked(url_, impl_->exchange(req, timeout));
}

ApiResponse ApiClient::post(const std::string& path, const std::string& json_body,
                            std::chrono::milliseconds timeout) {
  const Request req = make_request(http::verb::post, path, url_, target_.token, json_body);
  return checked(url_, impl_->exchange(req, timeout));
}

nlohmann::json ApiClient::get_json(const std::string& path, std::chrono::milliseconds timeout) {
  return parsed(url_, path, get(path, timeout));
}

nlohmann::json ApiClient::post_json(const std::string& path, const nlohmann::json& body,
                                    std::chrono::milliseconds timeout) {
  return parsed(url_, path, post(path, body.dump(), timeout));
}

}  // namespace schedrig::client
