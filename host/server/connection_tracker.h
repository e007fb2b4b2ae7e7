// Open connections of one server: how many (against max_connections) and
// who owns each now (the HTTP connection, then the agent session it became),
// so the server can stop them all (docs/architecture.md "Server").
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>

namespace schedrig::server {

// Something the server can stop: an HTTP connection or an agent session.
// stop() is thread-safe and may be called more than once.
class Stoppable {
 public:
  virtual ~Stoppable() = default;
  virtual void stop() = 0;
};

class ConnectionTracker;

// One counted connection; move-only. Released (no longer counted) by
// release() or its destructor. Default-constructed: counts nothing.
class ConnectionSlot {
 public:
  ConnectionSlot() = default;
  ~ConnectionSlot();
  ConnectionSlot(ConnectionSlot&& other) noexcept;
  ConnectionSlot& operator=(ConnectionSlot&& other) noexcept;
  ConnectionSlot(const ConnectionSlot&) = delete;
  ConnectionSlot& operator=(const ConnectionSlot&) = delete;

  // Who stop_all() stops for this slot from now on. Once the tracker is
  // stopping, `owner` is stopped at once.
  void attach(const std::shared_ptr<Stoppable>& owner);
  void release();

 private:
  friend class ConnectionTracker;
  ConnectionSlot(std::shared_ptr<ConnectionTracker> tracker, std::uint64_t id);

  std::shared_ptr<ConnectionTracker> tracker_;
  std::uint64_t id_ = 0;
};

// Thread-safe. Shared by the listener and every slot it handed out.
class ConnectionTracker : public std::enable_shared_from_this<ConnectionTracker> {
 public:
  explicit ConnectionTracker(std::size_t limit) : limit_(limit) {}

  // A slot while fewer than `limit` are open, else nullopt.
  std::optional<ConnectionSlot> try_open();
  // Slots not released yet.
  std::size_t open() const;
  // Stops every open connection's owner, and every owner attached later.
  void stop_all();

 private:
  friend class ConnectionSlot;
  void attach(std::uint64_t id, const std::shared_ptr<Stoppable>& owner);
  void release(std::uint64_t id);

  mutable std::mutex mu_;
  const std::size_t limit_;
  std::uint64_t next_id_ = 1;
  bool stopping_ = false;
  std::unordered_map<std::uint64_t, std::weak_ptr<Stoppable>> open_;
};

}  // namespace schedrig::server
