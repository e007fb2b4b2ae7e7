#include "host/server/connection_tracker.h"

#include <utility>
#include <vector>

namespace schedrig::server {

ConnectionSlot::ConnectionSlot(std::shared_ptr<ConnectionTracker> tracker, std::uint64_t id)
    : tracker_(std::move(tracker)), id_(id) {}

ConnectionSlot::~ConnectionSlot() { release(); }

ConnectionSlot::ConnectionSlot(ConnectionSlot&& other) noexcept
    : tracker_(std::move(other.tracker_)), id_(std::exchange(other.id_, 0)) {}

ConnectionSlot& ConnectionSlot::operator=(ConnectionSlot&& other) noexcept {
  if (this != &other) {
    release();
    tracker_ = std::move(other.tracker_);
    id_ = std::exchange(other.id_, 0);
  }
  return *this;
}

void ConnectionSlot::attach(const std::shared_ptr<Stoppable>& owner) {
  if (tracker_) tracker_->attach(id_, owner);
}

void ConnectionSlot::release() {
  if (tracker_) std::exchange(tracker_, nullptr)->release(id_);
}

std::optional<ConnectionSlot> ConnectionTracker::try_open() {
  std::lock_guard lock(mu_);
  if (open_.size() >= limit_) return std::nullopt;
  const std::uint64_t id = next_id_++;
  open_.emplace(id, std::weak_ptr<Stoppable>());
  return ConnectionSlot(shared_from_this(), id);
}

std::size_t ConnectionTracker::open() const {
  std::lock_guard lock(mu_);
  return open_.size();
}

void ConnectionTracker::stop_all() {
  std::vector<std::shared_ptr<Stoppable>> owners;
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
    for (auto& [id, weak] : open_) {
      if (auto owner = weak.lock()) owners.push_back(std::move(owner));
    }
  }
  for (auto& owner : owners) owner->stop();  // outside the lock: stop() may release
}

void ConnectionTracker::attach(std::uint64_t id, const std::shared_ptr<Stoppable>& owner) {
  bool stop_now = false;
  {
    std::lock_guard lock(mu_);
    auto it = open_.find(id);
    if (it != open_.end()) it->second = owner;
    stop_now = stopping_;
  }
  if (stop_now && owner) owner->stop();
}

void ConnectionTracker::release(std::uint64_t id) {
  std::lock_guard lock(mu_);
  open_.erase(id);
}

}  // namespace schedrig::server
