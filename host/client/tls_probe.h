// Telling an http:// client that the server speaks TLS: after a plain
// request got no answer, one TLS handshake with the same host and port.
#pragma once

#include <chrono>

#include "host/client/server_url.h"

namespace schedrig::client {

// How long the probe may take, connect to the end of the handshake.
inline constexpr std::chrono::milliseconds kTlsProbeTimeout{5000};

// True when `url`'s host and port complete a TLS handshake within
// `timeout`. The certificate is not checked and nothing is sent after the
// handshake: it only picks the hint of transport_error. Never throws; any
// failure is false.
bool speaks_tls(const ServerUrl& url, std::chrono::milliseconds timeout = kTlsProbeTimeout);

}  // namespace schedrig::client
