// The real `schedrig serve` as a child of the bench: started on an
// ephemeral loopback port with TLS, found listening through its log line,
// and always stopped (SIGTERM, then SIGKILL) when this object goes, on
// error too. The child also dies with the bench (PR_SET_PDEATHSIG).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>

namespace schedrig::bench {

struct ServeConfig {
  std::string schedrig;  // the built `schedrig` binary
  std::string db, tokens, tls_cert, tls_key;
  std::string log;  // the child's stdout and stderr go here
};

class ServeProcess {
 public:
  // Starts `schedrig serve --listen 127.0.0.1:0 ...` and waits (up to
  // `timeout`) for its "serving on 127.0.0.1:PORT" line. Throws
  // std::runtime_error (with the log's tail) when it cannot start, exits or
  // does not listen in time.
  ServeProcess(const ServeConfig& config, std::chrono::milliseconds timeout);
  ~ServeProcess();  // stop()
  ServeProcess(const ServeProcess&) = delete;
  ServeProcess& operator=(const ServeProcess&) = delete;

  pid_t pid() const { return pid_; }
  unsigned short port() const { return port_; }
  std::string agent_url() const;  // wss://127.0.0.1:PORT/agent

  // SIGTERM, up to 5 s for it to exit, then SIGKILL; reaps it. Idempotent.
  void stop();

 private:
  void wait_listening(std::chrono::milliseconds timeout);

  ServeConfig config_;
  pid_t pid_ = -1;
  unsigned short port_ = 0;
};

// For the bench's own SIGINT/SIGTERM handler: SIGKILLs the live serve child
// (async-signal-safe), if any.
void kill_live_serve_child();

}  // namespace schedrig::bench
