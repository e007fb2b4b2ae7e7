// Which live session speaks for each agent id (docs/architecture.md
// "Server", "Same id twice"). On Hello a session claims its id: free -> it
// is accepted; held by the same instance_id (a reconnect after a half-open
// link) -> the new one takes over and the old one is closed; held by another
// instance -> the old one is pinged, and if it answers within the probe
// timeout (5 s) the new one is refused ("two agents share id X"), else the
// old one is closed and the new one accepted. Nothing blocks: the decision
// comes through a callback.
#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace schedrig::collector {

// What the registry needs of a session. Thread-safe.
class RegisteredSession {
 public:
  virtual ~RegisteredSession() = default;
  // Pings the peer; calls `answer(true)` when anything arrives from it
  // within `timeout`, else (or once it is closed) `answer(false)`. Once.
  virtual void probe(std::chrono::milliseconds timeout, std::function<void(bool)> answer) = 0;
  // Closes it (1008): another connection took its id; `why` is one line.
  virtual void replace(const std::string& why) = 0;
  virtual const std::string& peer() const = 0;
};

// Thread-safe; held by shared_ptr (probes keep it alive).
class SessionRegistry : public std::enable_shared_from_this<SessionRegistry> {
 public:
  explicit SessionRegistry(std::chrono::milliseconds probe_timeout)
      : probe_timeout_(probe_timeout) {}

  // `decide(true, "")` when `session` now holds `agent_id`, or
  // `decide(false, why)` when it is refused; called once, maybe later and
  // on another thread.
  using Decision = std::function<void(bool accepted, const std::string& why)>;
  void claim(const std::string& agent_id, const std::string& instance_id,
             const std::shared_ptr<RegisteredSession>& session, Decision decide);
  // `session` ended: its id is free again if it still held it.
  void release(const std::string& agent_id, const RegisteredSession* session);
  // The session holding `agent_id`, if one does and it is alive.
  std::shared_ptr<RegisteredSession> holder(const std::string& agent_id) const;

 private:
  struct Holder {
    std::weak_ptr<RegisteredSession> session;
    std::string instance_id;
  };
  void on_probe(const std::string& agent_id, const std::string& instance_id,
                const std::shared_ptr<RegisteredSession>& session,
                const std::shared_ptr<RegisteredSession>& old, bool old_alive, Decision decide);

  const std::chrono::milliseconds probe_timeout_;
  mutable std::mutex mu_;
  std::map<std::string, Holder> holders_;
};

}  // namespace schedrig::collector
