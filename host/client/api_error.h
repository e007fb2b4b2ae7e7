// What a refused or failed API call means to the user (docs/architecture.md
// "Command lines", "HTTP API"): the HTTP status decides the error's kind, the
// server's {"error": ...} text (escaped) its message.
#pragma once

#include <string>

#include "common/error.h"

namespace schedrig::client {

// The largest part of an error body quoted when it is not the API's JSON.
inline constexpr std::size_t kMaxQuotedBody = 200;

// The server's error text from an answer's body, made printable: its
// {"error": "..."} field; for a plan error ({error, file, line, key, value})
// "FILE:LINE: key 'K': ERROR" unless the text already starts with "FILE:";
// a body that is not such JSON, its first kMaxQuotedBody bytes; "" for an
// empty body.
std::string server_error_text(const std::string& body);

// The error for a non-2xx answer `status` with `body` from `origin`
// (http://HOST:PORT): 401/403 -> kUsage "server ORIGIN refused the token
// (401 Unauthorized)"; other 4xx -> kUsage with the server's text; 5xx ->
// kFailed "server ORIGIN failed (500 Internal Server Error): TEXT"; anything
// else (1xx, 3xx) -> kFailed naming the status.
Error api_error(const std::string& origin, unsigned status, const std::string& body);

}  // namespace schedrig::client
