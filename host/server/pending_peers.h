// Connections not authorized yet (docs/architecture.md "Server"): counted
// per peer address and in total, so one address cannot fill
// --max-connections with sockets that never send a token. A connection is
// pending from accept until a request on it passes the token check; an
// agent session or an API connection is then no longer counted.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

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

  void release();
  // True when it counts nothing (refused, released or moved from).
  bool empty() const { return peers_ == nullptr; }

 private:
  friend class PendingPeers;
  PendingTicket(std::shared_ptr<PendingPeers> peers, std::string address);

  std::shared_ptr<PendingPeers> peers_;
  std::string address_;
};

// What try_enter() refused: the peer is at its cap, or the server at its total.
enum class PendingRefusal { kNone, kPeerFull, kTotalFull };

// Thread-safe. Shared by the listener and every ticket it handed out.
class PendingPeers : public std::enable_shared_from_this<PendingPeers> {
 public:
  // At most `per_peer` pending connections from one address, `total` in all.
  PendingPeers(std::size_t per_peer, std::size_t total) : per_peer_(per_peer), total_(total) {}

  // A ticket for a new connection from `address` ("127.0.0.1"), or why not
  // (`refusal` set, the ticket empty).
  PendingTicket try_enter(const std::string& address, PendingRefusal& refusal);
  // Pending connections from `address`, and in all.
  std::size_t pending(const std::string& address) const;
  std::size_t pending() const;
  std::size_t per_peer_limit() const { return per_peer_; }
  std::size_t total_limit() const { return total_; }

 private:
  friend class PendingTicket;
  void leave(const std::string& address);

  mutable std::mutex mu_;
  const std::size_t per_peer_;
  const std::size_t total_;
  std::size_t count_ = 0;
  std::unordered_map<std::string, std::size_t> by_peer_;
};

}  // namespace schedrig::server
