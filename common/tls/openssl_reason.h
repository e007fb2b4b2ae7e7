// OpenSSL's own words for why a call failed, for error messages.
#pragma once

#include <string>

namespace schedrig::tls {

// Drains OpenSSL's error queue of this thread and describes its first
// (oldest) error: "no start line (PEM routines)"; "unknown OpenSSL error"
// when the queue is empty.
std::string take_openssl_reason();

}  // namespace schedrig::tls
