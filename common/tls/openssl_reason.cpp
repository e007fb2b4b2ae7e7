#include "common/tls/openssl_reason.h"

#include <openssl/err.h>

#include <fmt/format.h>

namespace schedrig::tls {

std::string take_openssl_reason() {
  const unsigned long err = ERR_get_error();
  ERR_clear_error();
  if (err == 0) return "unknown OpenSSL error";
  const char* reason = ERR_reason_error_string(err);
  const char* lib = ERR_lib_error_string(err);
  if (!reason) return fmt::format("OpenSSL error {:#x}", err);
  return lib ? fmt::format("{} ({})", reason, lib) : std::string(reason);
}

}  // namespace schedrig::tls
