// Which endpoint an HTTP request is for, whether its bearer token may use
// it, and the error answers the server gives itself (docs/architecture.md
// "Server"): /agent (WebSocket, agent tokens), /api/v1/... and /metrics
// (operator tokens, both to the ApiHandler), else 404; 401 with WWW-Authenticate: Bearer for a
// missing or unknown token, 403 for a token of the other role.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/status.hpp>
#include <boost/beast/http/string_body.hpp>

#include "common/auth/token.h"
#include "common/auth/token_set.h"
#include "host/server/api_handler.h"

namespace schedrig::server {

using Request = boost::beast::http::request<boost::beast::http::string_body>;
using Response = boost::beast::http::response<boost::beast::http::string_body>;

// Beast's string_view (boost::string_view in Boost 1.74) as a std::string_view.
inline std::string_view to_std(boost::beast::string_view text) {
  return {text.data(), text.size()};
}

enum class Route { kAgent, kApi, kNotFound };

// The route of a request target ("/agent", "/api/v1/runs?state=queued");
// the query does not matter, the path must match exactly ("/agent/x",
// "/api/v1x" and "/api" are kNotFound).
Route route_of(std::string_view target);

// What a refusal names for `target`'s route: "/agent", "/metrics" or "/api/v1/".
std::string route_name(std::string_view target);

// The role a route needs (kAgent for kAgent, kOperator for kApi).
auth::Role role_for(Route route);

// A token check: the principal, or why not (status 401 or 403, and a reason
// for the log that never holds the token).
struct Authorization {
  std::optional<auth::Principal> principal;
  boost::beast::http::status status = boost::beast::http::status::ok;
  std::string reason;
};

// Checks `Authorization: Bearer TOKEN` of `request` against `tokens` for `role`.
Authorization authorize(const Request& request, const auth::TokenSet& tokens, auth::Role role);

// An error answer to `request`: {"error": TEXT} on the API routes (and any
// path under /api), plain text elsewhere; 401 carries WWW-Authenticate: Bearer.
// Keeps the connection open only when `keep_alive` and the request allows it.
Response error_response(const Request& request, boost::beast::http::status status,
                        std::string_view text, bool keep_alive);

// {"error": TEXT} and a newline, the API's error body.
std::string error_body(std::string_view text);

// The handler's answer as an HTTP response to `request`.
Response api_response(const Request& request, const ApiResponse& answer);

}  // namespace schedrig::server
