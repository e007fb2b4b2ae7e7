// JSON bodies of the HTTP API (docs/architecture.md "HTTP API").
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/control/live_agents.h"
#include "host/store/agent_state_queries.h"
#include "host/store/records.h"

namespace schedrig::control {

// Each queued row's queue_position: how many runs of its agent are ahead of
// it (running or queued before it); 0 = it runs next. `rows` are the queue's
// queued and running rows in FIFO order.
std::map<std::string, int> queue_positions(const std::vector<store::QueuedRun>& rows);

// {"agents":[{agent_id, connected, state, run_id, waiting, queued, hostname,
// kernel_release, pus, allowed_pus, peer, instance_id, last_seen_ns, boot_id,
// arch, kernels: [{name, release, hook}], booting, boot_error}]}: every
// agent of `stored` and `live`, sorted by agent_id; live values win. arch,
// kernels, booting (the kernel a Boot was sent for) and boot_error (why the
// last Boot failed) are known only while live.
// `waiting`: what its run waits for (LiveAgent::waiting), "" when it does
// not. `queued` counts queued rows per agent.
nlohmann::json agents_json(const std::vector<store::AgentRecord>& stored,
                           const std::map<std::string, LiveAgent>& live,
                           const std::map<std::string, int>& queued);

// GET /api/v1/agents/ID/knobs: the knobs a connected agent's Hello
// reported, in the shape of `schedrig-agent knobs list --json` so
// bisect-knobs reads both alike: {agent_id, instance_id, hostname,
// kernel_release, features: {path, writable, features: {NAME: on} |
// error, write_error}, knobs: [{name, path, readable, writable, errno,
// value, error}], bisect_deny: [NAME]}. Values are as of the Hello (the
// agent's start or reconnect). At most 512 features, 256 knobs and 256
// deny names, and when the Hello had more, left_out: {features, knobs,
// bisect_deny} counts what was not listed; a value over 4096 bytes is left
// out; an errno outside 1..4095 reads as EIO.
nlohmann::json agent_knobs_json(const std::string& agent_id, const LiveAgent& agent);

// {"runs":[{run_id, agent_id, plan_name, state, reason, waiting, labels,
// submitted_by, submitted_at_ns, dispatched_at_ns, finished_at_ns,
// queue_position}]}: the rows in the order given; for a running row, state
// "aborting" when its agent in `live` was sent an Abort for it, and
// `waiting` what the run waits for ("" otherwise); queue_position -1 for a
// row not queued.
nlohmann::json queue_json(const std::vector<store::QueuedRun>& rows,
                          const std::map<std::string, int>& positions,
                          const std::map<std::string, LiveAgent>& live);

// One event of GET runs/ID/events: {"id", "kind", "body"}; body by kind:
// run_started {plan, labels, planned_iterations}; iteration_result one
// element of results JSON iterations[]; sample report::sample_json (run_id,
// case, variant, iteration, position, t_ns, interval_s, ops_so_far,
// values:{FIELD: value}, starved, starved_reason); run_finished {status, reason,
// completed_iterations}; error {code, message}; log {level, message, waiting}.
nlohmann::json event_json(const store::RunEvent& event);

}  // namespace schedrig::control
