#include "host/server/pending_peers.h"

#include <utility>

namespace schedrig::server {

PendingTicket::PendingTicket(std::shared_ptr<PendingPeers> peers, std::string address)
    : peers_(std::move(peers)), address_(std::move(address)) {}

PendingTicket::~PendingTicket() { release(); }

PendingTicket::PendingTicket(PendingTicket&& other) noexcept
    : peers_(std::move(other.peers_)), address_(std::move(other.address_)) {}

PendingTicket& PendingTicket::operator=(PendingTicket&& other) noexcept {
  if (this != &other) {
    release();
    peers_ = std::move(other.peers_);
    address_ = std::move(other.address_);
  }
  return *this;
}

void PendingTicket::release() {
  if (peers_) std::exchange(peers_, nullptr)->leave(address_);
}

PendingTicket PendingPeers::try_enter(const std::string& address, PendingRefusal& refusal) {
  std::lock_guard lock(mu_);
  if (count_ >= total_) {
    refusal = PendingRefusal::kTotalFull;
    return {};
  }
  const auto it = by_peer_.find(address);
  if ((it == by_peer_.end() ? 0 : it->second) >= per_peer_) {
    refusal = PendingRefusal::kPeerFull;
    return {};
  }
  ++by_peer_[address];
  ++count_;
  refusal = PendingRefusal::kNone;
  return PendingTicket(shared_from_this(), address);
}

std::size_t PendingPeers::pending(const std::string& address) const {
  std::lock_guard lock(mu_);
  const auto it = by_peer_.find(address);
  return it == by_peer_.end() ? 0 : it->second;
}

std::size_t PendingPeers::pending() const {
  std::lock_guard lock(mu_);
  return count_;
}

void PendingPeers::leave(const std::string& address) {
  std::lock_guard lock(mu_);
  const auto it = by_peer_.find(address);
  if (it == by_peer_.end()) return;
  --count_;
  if (--it->second == 0) by_peer_.erase(it);
}

}  // namespace schedrig::server
