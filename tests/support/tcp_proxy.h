// Test support: a loopback TCP proxy between a client under test (an agent)
// and its server (serve), so a test can break the network in between: cut()
// resets every connection at once, set_blackhole(true) stops every byte both
// ways without closing anything (a dead network; the bytes wait in the
// sockets and flow again when it is lifted). Asio on its own thread; used by
// the `faults` suite (tests/faults, issue #13).
#pragma once

#include <cstddef>
#include <memory>

namespace schedrig::testing {

class TcpProxy {
 public:
  // Listens on 127.0.0.1:0 at once and forwards each accepted connection to
  // 127.0.0.1:`target_port`. A target that refuses (not listening) gets the
  // client reset, as a refused connect would. When one side of a connection
  // resets, the other is reset; when one side closes (EOF, after everything
  // it sent was passed on), both are closed cleanly. Throws
  // std::system_error when it cannot listen.
  explicit TcpProxy(unsigned short target_port);
  // Resets every connection and stops the thread.
  ~TcpProxy();
  TcpProxy(const TcpProxy&) = delete;
  TcpProxy& operator=(const TcpProxy&) = delete;

  // The port clients connect to.
  unsigned short port() const;
  // Resets (RST: SO_LINGER 0, then close) both sockets of every current
  // connection and keeps accepting; returns once done.
  void cut();
  // On: no byte is read from either side any more (what was read and not yet
  // written waits too); off: forwarding resumes where it stopped. Returns
  // once applied.
  void set_blackhole(bool on);
  // Connections accepted so far (a reconnect counts anew).
  std::size_t accepted() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace schedrig::testing
