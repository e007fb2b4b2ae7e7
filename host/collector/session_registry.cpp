#include "host/collector/session_registry.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "common/printable.h"

namespace schedrig::collector {

void SessionRegistry::claim(const std::string& agent_id, const std::string& instance_id,
                            const std::shared_ptr<RegisteredSession>& session, Decision decide) {
  std::unique_lock lock(mu_);
  Holder& holder = holders_[agent_id];
  std::shared_ptr<RegisteredSession> old = holder.session.lock();
  if (!old || old == session) {
    holder = Holder{session, instance_id};
    lock.unlock();
    return decide(true, "");
  }
  if (holder.instance_id == instance_id) {
    holder = Holder{session, instance_id};
    lock.unlock();
    spdlog::info("agent {}: a new connection of the same instance ({}) takes over from {}",
                 printable(agent_id), session->peer(), old->peer());
    old->replace("a new connection of the same agent instance took over from " + session->peer());
    return decide(true, "");
  }
  lock.unlock();
  old->probe(probe_timeout_, [self = shared_from_this(), agent_id, instance_id, session, old,
                              decide = std::move(decide)](bool alive) {
    self->on_probe(agent_id, instance_id, session, old, alive, decide);
  });
}

void SessionRegistry::on_probe(const std::string& agent_id, const std::string& instance_id,
                               const std::shared_ptr<RegisteredSession>& session,
                               const std::shared_ptr<RegisteredSession>& old, bool old_alive,
                               Decision decide) {
  std::unique_lock lock(mu_);
  Holder& holder = holders_[agent_id];
  if (holder.session.lock() != old) {  // it changed while the ping was out: decide again
    lock.unlock();
    return claim(agent_id, instance_id, session, std::move(decide));
  }
  if (old_alive) {
    lock.unlock();
    spdlog::warn("two agents share id {} (peer {} and peer {}): refusing the new one",
                 printable(agent_id), old->peer(), session->peer());
    // The peer hears its own id only; the other connection's address is for the log.
    return decide(false, fmt::format("another agent with id {} is connected", printable(agent_id)));
  }
  holder = Holder{session, instance_id};
  lock.unlock();
  spdlog::info("agent {}: the connection from {} did not answer a ping; {} takes over",
               printable(agent_id), old->peer(), session->peer());
  old->replace("did not answer a ping while a new instance connected from " + session->peer());
  decide(true, "");
}

void SessionRegistry::release(const std::string& agent_id, const RegisteredSession* session) {
  std::lock_guard lock(mu_);
  auto it = holders_.find(agent_id);
  if (it == holders_.end()) return;
  auto current = it->second.session.lock();
  if (!current || current.get() == session) holders_.erase(it);
}

std::shared_ptr<RegisteredSession> SessionRegistry::holder(const std::string& agent_id) const {
  std::lock_guard lock(mu_);
  auto it = holders_.find(agent_id);
  return it == holders_.end() ? nullptr : it->second.session.lock();
}

}  // namespace schedrig::collector
