// TEMPORARY STUB (P5 control) until P3 host/server lands: the spec's interface.
#pragma once

#include <functional>
#include <string>

#include "common/auth/token_set.h"

namespace schedrig::server {

struct ApiRequest {
  std::string method;
  std::string target;
  std::string body;
  auth::Principal principal;
  std::string peer;
};

struct ApiResponse {
  unsigned status = 200;
  std::string body;
  std::string content_type = "application/json";
};

class ApiHandler {
 public:
  virtual ~ApiHandler() = default;
  virtual void handle(ApiRequest request, std::function<void(ApiResponse)> done) = 0;
};

}  // namespace schedrig::server
