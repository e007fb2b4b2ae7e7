// What the server hands an operator's HTTP request to (docs/architecture.md
// "Control plane", "Server"): one request under /api/v1, already
// authenticated, with its body read (at most ServerOptions::body_limit).
#pragma once

#include <functional>
#include <string>

#include "common/auth/token_set.h"

namespace schedrig::server {

// One HTTP request under /api/v1 from an authenticated operator.
struct ApiRequest {
  std::string method;         // "GET", "POST"
  std::string target;         // "/api/v1/runs?state=queued" (path + query, as sent)
  std::string body;           // <= body_limit (larger -> 413 before the handler)
  auth::Principal principal;  // always an operator here
  std::string peer;           // "127.0.0.1:5555"
};

// The answer; `body` is sent as is with `content_type`.
struct ApiResponse {
  unsigned status = 200;
  std::string body;
  std::string content_type = "application/json";
};

class ApiHandler {
 public:
  virtual ~ApiHandler() = default;
  // Called on the connection's strand. Must call `done` exactly once, from any
  // thread, possibly later (long polls). The server keeps the connection
  // alive until then; a second call is ignored.
  virtual void handle(ApiRequest request, std::function<void(ApiResponse)> done) = 0;
};

}  // namespace schedrig::server
