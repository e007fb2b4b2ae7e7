#include "host/server/pending_peers.h"

#include <utility>

namespace schedrig::server {

PendingTicket::PendingTicket(std::shared_ptr<PendingPeers> peers, std::uint64_t id)
    : peers_(std::move(peers)), id_(id) {}

PendingTicket::~PendingTicket() { release(); }

PendingTicket::PendingTicket(PendingTicket&& other) noexcept
    : peers_(std::move(other.peers_)), id_(std::exchange(other.id_, 0)) {}

PendingTicket& PendingTicket::operator=(PendingTicket&& other) noexcept {
  if (this != &other) {
    release();
    peers_ = std::move(other.peers_);
    id_ = std::exchange(other.id_, 0);
  }
  return *this;
}

void PendingTicket::attach(const std::shared_ptr<Stoppable>& owner) {
  if (peers_) peers_->attach(id_, owner);
}

void PendingTicket::release() {
  if (peers_) std::exchange(peers_, nullptr)->leave(id_);
}

PendingAdmission PendingPeers::try_enter(const std::string& group) {
  PendingAdmission admission;
  std::shared_ptr<Stoppable> evicted_owner;
  {
    std::lock_guard lock(mu_);
    const auto it = by_peer_.find(group);
    if ((it == by_peer_.end() ? 0 : it->second) >= per_peer_) {
      admission.peer_full = true;
      return admission;
    }
    if (entries_.size() >= total_ && !entries_.empty()) {
      Entry oldest = evict_oldest();
      admission.evicted = std::move(oldest.group);
      evicted_owner = oldest.owner.lock();
    }
    const std::uint64_t id = next_id_++;
    entries_.emplace(id, Entry{group, {}});
    ++by_peer_[group];
    admission.ticket = PendingTicket(shared_from_this(), id);
  }
  if (evicted_owner) evicted_owner->stop();  // outside the lock: stop() may release
  return admission;
}

std::size_t PendingPeers::pending(const std::string& group) const {
  std::lock_guard lock(mu_);
  const auto it = by_peer_.find(group);
  return it == by_peer_.end() ? 0 : it->second;
}

std::size_t PendingPeers::pending() const {
  std::lock_guard lock(mu_);
  return entries_.size();
}

void PendingPeers::attach(std::uint64_t id, const std::shared_ptr<Stoppable>& owner) {
  bool evicted = false;
  {
    std::lock_guard lock(mu_);
    const auto it = entries_.find(id);
    if (it == entries_.end()) {
      evicted = true;
    } else {
      it->second.owner = owner;
    }
  }
  if (evicted && owner) owner->stop();
}

void PendingPeers::leave(std::uint64_t id) {
  std::lock_guard lock(mu_);
  const auto it = entries_.find(id);
  if (it == entries_.end()) return;  // evicted: already uncounted
  uncount(it->second.group);
  entries_.erase(it);
}

PendingPeers::Entry PendingPeers::evict_oldest() {
  auto oldest = entries_.begin();
  Entry entry = std::move(oldest->second);
  entries_.erase(oldest);
  uncount(entry.group);
  return entry;
}

void PendingPeers::uncount(const std::string& group) {
  const auto it = by_peer_.find(group);
  if (it != by_peer_.end() && --it->second == 0) by_peer_.erase(it);
}

}  // namespace schedrig::server
