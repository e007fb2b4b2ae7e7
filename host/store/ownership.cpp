#include "host/store/ownership.h"

#include <fmt/format.h>

#include "common/envelope_codec.h"

namespace schedrig::store {

using v1::Envelope;

namespace {

[[noreturn]] void refuse_instance(const sqlite::Db& db, const Envelope& env,
                                  const std::string& agent) {
  throw StoreError(
      StoreError::Reason::kNotOwner,
      fmt::format("store {}: envelope ({}) from agent '{}' names instance {} of "
                  "agent '{}'; refused",
                  db.path(), body_name(env), env.agent_id(), env.instance_id(), agent));
}

}  // namespace

void claim_instance(sqlite::Db& db, const Envelope& env, OwnerCache* cache) {
  if (!instance_recorded(db, env, cache)) record_instance(db, env);
}

bool instance_recorded(sqlite::Db& db, const Envelope& env, OwnerCache* cache) {
  if (cache) {
    auto found = cache->instance_owner.find(env.instance_id());
    if (found != cache->instance_owner.end()) {
      if (found->second == env.agent_id()) return true;
      refuse_instance(db, env, found->second);
    }
  }
  sqlite::Statement& owner = db.cached("SELECT agent_id FROM instances WHERE instance_id = ?1");
  owner.bind_text(1, env.instance_id());
  if (!owner.step()) {
    owner.reset();
    return false;
  }
  std::string agent = owner.column_text(0);
  owner.reset();
  if (cache) cache->instance_owner.emplace(env.instance_id(), agent);
  if (agent == env.agent_id()) return true;
  refuse_instance(db, env, agent);
}

void record_instance(sqlite::Db& db, const Envelope& env) {
  sqlite::Statement& claim =
      db.cached("INSERT INTO instances (instance_id, agent_id, boot_id) VALUES (?1, ?2, ?3)");
  claim.bind_text(1, env.instance_id())
      .bind_text(2, env.agent_id())
      .bind_text(3, env.boot_id())
      .run();
}

void require_assigned_run(sqlite::Db& db, const Envelope& env, OwnerCache* cache) {
  const std::string* run_id = run_id_of(env);  // common/envelope_codec.h
  if (!run_id) return;
  if (cache) {
    auto found = cache->run_owner.find(*run_id);
    if (found != cache->run_owner.end() && found->second == env.agent_id()) return;
  }
  sqlite::Statement& owner = db.cached("SELECT agent_id FROM queue WHERE run_id = ?1");
  owner.bind_text(1, *run_id);
  const bool queued = owner.step();
  const std::string agent = queued ? owner.column_text(0) : std::string();
  owner.reset();
  if (queued && cache) cache->run_owner.emplace(*run_id, agent);
  if (queued && agent == env.agent_id()) return;
  throw StoreError(
      StoreError::Reason::kNotOwner,
      fmt::format("store {}: envelope ({}) from agent '{}' for run '{}', which {}; refused",
                  db.path(), body_name(env), env.agent_id(), *run_id,
                  queued ? fmt::format("is queued for agent '{}'", agent)
                         : std::string("is not in the queue")));
}

}  // namespace schedrig::store
