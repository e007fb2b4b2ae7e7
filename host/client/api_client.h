// A synchronous HTTP/1.1 client for `schedrig serve`'s API
// (docs/architecture.md "HTTP API"): plain or TLS (SNI, the server's name
// verified against its certificate), the operator's bearer token on every
// request, a deadline per request, bounded answers.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "host/client/server_target.h"
#include "host/client/server_url.h"

namespace schedrig::client {

// The most of an answer's body the client reads; more is Error(kPeerLimit).
inline constexpr std::size_t kMaxResponseBody = std::size_t{64} << 20;

// How long a request may take by default, connect to last byte.
inline constexpr std::chrono::milliseconds kDefaultTimeout{30000};

// A 2xx answer.
struct ApiResponse {
  unsigned status = 200;
  std::string body;
};

// One server; a fresh connection per request. Not thread-safe: one thread
// uses one client.
class ApiClient {
 public:
  // Throws schedrig::Error(kUsage) for a bad URL or (https) an unusable CA file.
  explicit ApiClient(ServerTarget target);
  ~ApiClient();
  ApiClient(const ApiClient&) = delete;
  ApiClient& operator=(const ApiClient&) = delete;

  // GET / POST `path` ("/api/v1/agents", with any query). A 2xx answer is
  // returned; anything else throws api_error's Error (client/api_error.h).
  // Cannot connect, TLS refused, the connection lost or no whole answer
  // within `timeout` -> Error(kUnreachable) naming the URL; a body over
  // kMaxResponseBody -> Error(kPeerLimit); stopped by a signal (after
  // stop_on_signals) -> Error(kInterrupted).
  ApiResponse get(const std::string& path, std::chrono::milliseconds timeout = kDefaultTimeout);
  ApiResponse post(const std::string& path, const std::string& json_body,
                   std::chrono::milliseconds timeout = kDefaultTimeout);

  // get / post with the body parsed as JSON; a body that is not JSON is
  // Error(kFailed) naming the URL and path.
  nlohmann::json get_json(const std::string& path,
                          std::chrono::milliseconds timeout = kDefaultTimeout);
  nlohmann::json post_json(const std::string& path, const nlohmann::json& body,
                           std::chrono::milliseconds timeout = kDefaultTimeout);

  // From now on SIGINT and SIGTERM, instead of killing the process, end the
  // request under way (or the next one, when they come between requests)
  // with Error(kInterrupted). For commands that follow runs (`watch`, `run --wait`).
  // `stop` false: requests run to their end again (the one last request
  // after an interruption, e.g. aborting the run it stopped following).
  void stop_on_signals(bool stop = true);

  const ServerTarget& target() const { return target_; }
  const ServerUrl& url() const { return url_; }

 private:
  class Impl;
  ServerTarget target_;
  ServerUrl url_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace schedrig::client
