// Connections not authorized yet (docs/architecture.md "Server"): counted
// per peer group (an IPv4 address or an IPv6 /64, peer_group.h) and in
// total, so one peer cannot fill --max-connections with sockets that never
// send a token. A connection is pending from accept until a request on it
// passes the token check; an agent session or an API connection is then no
// longer counted. At the per-group cap a new connection is refused; at the
// total cap the oldest pending connection is evicted (its owner stopped) to
// make room, so a flood from many peers cannot lock a legitimate client out
// until the flood's sockets time out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

#include "host/server/connection_tracker.h"

namespace schedrig::server {

class PendingPeers;

// One pending connection; move-only. Released (no longer counted) by
// release() or its destructor. Default-constructed: counts nothing.
class PendingTicket {
 public:
  PendingTicket() = default;
  ~PendingTicket();
  PendingTicket(PendingTicket&& other) noexcept;
  PendingTicket& operator=(PendingTicket&& other) noexcept;
  PendingTicket(const PendingTicket&) = delete;
  PendingTicket& operator=(const PendingTicket&) = delete;

  // Who is stopped when this connection is evicted. A ticket evicted before
  // it had an owner stops `owner` at once.
  void attach(const std::shared_ptr<Stoppable>& owner);
  void release();
  // True when it counts nothing (refused, released or moved from).
  bool empty() const { return peers_ == nullptr; }

 private:
  friend class PendingPeers;
  PendingTicket(std::shared_ptr<PendingPeers> peers, std::uint64_t id);

  std::shared_ptr<PendingPeers> peers_;
  std::uint64_t id_ = 0;
};

// What try_enter() did.
struct PendingAdmission {
  PendingTicket ticket;    // empty when refused
  bool peer_full = false;  // refused: the group has per_peer pending already
  std::string evicted;     // the group of the oldest connection evicted for it; "" = none
};

// Thread-safe. Shared by the listener and every ticket it handed out.
class PendingPeers : public std::enable_shared_from_this<PendingPeers> {
 public:
  // At most `per_peer` pending connections from one group, `total` in all.
  PendingPeers(std::size_t per_peer, std::size_t total) : per_peer_(per_peer), total_(total) {}

  // A ticket for a new connection from `group` ("127.0.0.1",
  // "2001:db8::/64"), evicting the oldest pending connection when `total`
  // are pending; refused (empty ticket) when the group is at its cap.
  PendingAdmission try_enter(const std::string& group);
  // Pending connections from `group`, and in all.
  std::size_t pending(const std::string& group) const;
  std::size_t pending() const;
  std::size_t per_peer_limit() const { return per_peer_; }
  std::size_t total_limit() const { return total_; }

 private:
  friend class PendingTicket;
  struct Entry {
    std::string group;
    std::weak_ptr<Stoppable> owner;
  };
  void attach(std::uint64_t id, const std::shared_ptr<Stoppable>& owner);
  void leave(std::uint64_t id);
  // Removes the oldest entry (the lock held); its group and owner.
  Entry evict_oldest();
  void uncount(const std::string& group);

  mutable std::mutex mu_;
  const std::size_t per_peer_;
  const std::size_t total_;
  std::uint64_t next_id_ = 1;
  std::map<std::uint64_t, Entry> entries_;  // by id: the oldest first
  std::unordered_map<std::string, std::size_t> by_peer_;
};

}  // namespace schedrig::server
