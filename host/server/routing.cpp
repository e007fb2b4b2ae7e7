#include "host/server/routing.h"

#include <boost/beast/http/field.hpp>
#include <nlohmann/json.hpp>

namespace schedrig::server {

namespace http = boost::beast::http;

namespace {

constexpr std::string_view kAgentPath = "/agent";
constexpr std::string_view kApiPrefix = "/api/v1/";
constexpr std::string_view kMetricsPath = "/metrics";

std::string_view path_of(std::string_view target) { return target.substr(0, target.find('?')); }

bool json_errors(boost::beast::string_view target) {
  const std::string_view path = path_of(to_std(target));
  return path == "/api" || path.starts_with("/api/");
}

Response with_server_fields(Response res) {
  res.set(http::field::server, "schedrig");
  res.prepare_payload();
  return res;
}

}  // namespace

Route route_of(std::string_view target) {
  const std::string_view path = path_of(target);
  if (path == kAgentPath) return Route::kAgent;
  if (path == kMetricsPath) return Route::kApi;  // operator tokens, the API handler answers
  if (path.starts_with(kApiPrefix) || path == kApiPrefix.substr(0, kApiPrefix.size() - 1))
    return Route::kApi;
  return Route::kNotFound;
}

std::string route_name(std::string_view target) {
  const std::string_view path = path_of(target);
  if (path == kAgentPath) return std::string(kAgentPath);
  if (path == kMetricsPath) return std::string(kMetricsPath);
  return std::string(kApiPrefix);
}

auth::Role role_for(Route route) {
  return route == Route::kAgent ? auth::Role::kAgent : auth::Role::kOperator;
}

Authorization authorize(const Request& request, const auth::TokenSet& tokens, auth::Role role) {
  auto header = request.find(http::field::authorization);
  if (header == request.end()) return {std::nullopt, http::status::unauthorized, "no token"};
  const auto token = auth::bearer_token(to_std(header->value()));
  if (!token) return {std::nullopt, http::status::unauthorized, "not a Bearer token"};
  auto principal = tokens.authenticate(*token);
  if (!principal) return {std::nullopt, http::status::unauthorized, "unknown token"};
  if (principal->role != role) {
    return {std::nullopt, http::status::forbidden,
            std::string("a token of ") + auth::role_name(principal->role) + " " + principal->name +
                " where " + auth::role_name(role) + " is needed"};
  }
  return {std::move(principal), http::status::ok, ""};
}

std::string error_body(std::string_view text) {
  return nlohmann::json{{"error", text}}.dump(-1, ' ', false,
                                              nlohmann::json::error_handler_t::replace) +
         "\n";
}

Response error_response(const Request& request, http::status status, std::string_view text,
                        bool keep_alive) {
  Response res(status, request.version());
  if (json_errors(request.target())) {
    res.set(http::field::content_type, "application/json");
    res.body() = error_body(text);
  } else {
    res.set(http::field::content_type, "text/plain; charset=utf-8");
    res.body() = std::string(text) + "\n";
  }
  if (status == http::status::unauthorized) {
    res.set(http::field::www_authenticate, "Bearer realm=\"schedrig\"");
  }
  res.keep_alive(keep_alive && request.keep_alive());
  return with_server_fields(std::move(res));
}

Response api_response(const Request& request, const ApiResponse& answer) {
  Response res(static_cast<http::status>(answer.status), request.version());
  res.set(http::field::content_type, answer.content_type);
  res.set(http::field::cache_control, "no-store");
  res.body() = answer.body;
  res.keep_alive(request.keep_alive());
  return with_server_fields(std::move(res));
}

}  // namespace schedrig::server
