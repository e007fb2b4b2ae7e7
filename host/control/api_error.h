// An HTTP API answer other than success (docs/architecture.md "HTTP API"):
// the status and the JSON body {"error": text, ...}.
#pragma once

#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

namespace schedrig::control {

class ApiError : public std::runtime_error {
 public:
  // Body {"error": message}.
  ApiError(unsigned status, const std::string& message)
      : std::runtime_error(message), status_(status), body_({{"error", message}}) {}
  ApiError(unsigned status, const char* message) : ApiError(status, std::string(message)) {}
  // `body` must hold "error".
  ApiError(unsigned status, nlohmann::json body)
      : std::runtime_error(body.at("error").get<std::string>()),
        status_(status),
        body_(std::move(body)) {}

  unsigned status() const { return status_; }
  const nlohmann::json& body() const { return body_; }

 private:
  unsigned status_;
  nlohmann::json body_;
};

}  // namespace schedrig::control
