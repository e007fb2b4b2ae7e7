#include "common/tls/server_check.h"

#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <fmt/format.h>
#include <boost/asio/ip/address.hpp>

#include "common/error.h"
#include "common/printable.h"

namespace schedrig::tls {

namespace ssl = boost::asio::ssl;

bool is_ip_address(const std::string& host) {
  boost::system::error_code ec;
  boost::asio::ip::make_address(host, ec);
  return !ec;
}

void check_server(boost::beast::ssl_stream<boost::beast::tcp_stream>& stream,
                  const std::string& host, std::string* why) {
  if (!is_ip_address(host) && !SSL_set_tlsext_host_name(stream.native_handle(), host.c_str())) {
    throw Error(ErrorKind::kFailed, "TLS: cannot set the server name " + printable(host));
  }
  stream.set_verify_mode(ssl::verify_peer);
  stream.set_verify_callback([host, why, check = ssl::host_name_verification(host)](
                                 bool preverified, ssl::verify_context& ctx) {
    if (!preverified) {
      *why = X509_verify_cert_error_string(X509_STORE_CTX_get_error(ctx.native_handle()));
      return false;
    }
    if (!check(true, ctx)) {
      *why = fmt::format("the host's certificate is not valid for {}", host);
      return false;
    }
    return true;
  });
}

}  // namespace schedrig::tls
