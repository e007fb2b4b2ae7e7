// `--listen ADDR:PORT` as an endpoint, and the error for an address the
// server cannot use (docs/architecture.md "Server").
#pragma once

#include <string>

#include <boost/asio/ip/tcp.hpp>

#include "common/error.h"

namespace schedrig::server {

// The listen address cannot be used. what() names it and the reason; the
// kind is kUsage for text that is no address, kUnreachable for an address
// that cannot be bound.
class ServerError : public Error {
 public:
  ServerError(ErrorKind kind, const std::string& message) : Error(kind, message) {}
};

// Parses "ADDR:PORT" ("127.0.0.1:7878", "[::1]:0", "0.0.0.0:7878").
// Throws ServerError (kUsage) naming the text.
boost::asio::ip::tcp::endpoint parse_listen_address(const std::string& text);

// "127.0.0.1:7878" or "[::1]:7878".
std::string endpoint_text(const boost::asio::ip::tcp::endpoint& endpoint);

}  // namespace schedrig::server
