// Telling a client that it picked the wrong scheme for a server (the CLI's
// http:// and https://, the agent's ws:// and wss://): a TLS handshake the
// server answered with plain HTTP (or not at all) says "use the plain
// scheme"; a plain request a TLS server dropped is followed by one probing
// TLS handshake that, when it completes, says "use the TLS scheme".
#pragma once

#include <chrono>
#include <string>

#include <boost/system/error_code.hpp>

namespace schedrig::tls {

// How long the probe may take, connect to the end of the handshake.
inline constexpr std::chrono::milliseconds kTlsProbeTimeout{5000};

// True when `ec`, ending a TLS handshake whose certificate was not refused,
// says the server answered something other than TLS (plain HTTP's answer
// read as a record: "wrong version number", "packet length too long") or
// closed without answering it.
bool not_tls_answer(const boost::system::error_code& ec);

// True when `host`:`port` completes a TLS handshake within `timeout`. The
// certificate is not checked and nothing is sent after the handshake: it
// only picks a hint. Never throws; any failure is false.
bool speaks_tls(const std::string& host, const std::string& port,
                std::chrono::milliseconds timeout = kTlsProbeTimeout);

// "the server did not answer TLS: is it serving plain HTTP? (then use
// PLAIN_URL)", PLAIN_URL e.g. "http://h:8080" or "ws://h:7878/agent".
std::string not_tls_hint(const std::string& plain_url);

// "the server speaks TLS: use TLS_URL", TLS_URL e.g. "https://h:8080".
std::string speaks_tls_hint(const std::string& tls_url);

}  // namespace schedrig::tls
