#include "host/control/api_json.h"

#include <cerrno>
#include <sstream>

#include "common/envelope_codec.h"
#include "common/plan/plan_json.h"
#include "common/procfs/read_error.h"
#include "common/wire_names.h"
#include "host/report/results_json.h"
#include "host/report/samples_report.h"

namespace schedrig::control {
namespace {

using nlohmann::json;

json agent_row(const std::string& agent_id) {
  return {{"agent_id", agent_id},
          {"connected", false},
          {"state", "offline"},
          {"run_id", ""},
          {"waiting", ""},
          {"queued", 0},
          {"hostname", ""},
          {"kernel_release", ""},
          {"pus", 0},
          {"allowed_pus", 0},
          {"peer", ""},
          {"instance_id", ""},
          {"last_seen_ns", 0},
          {"boot_id", ""},
          {"arch", ""},
          {"kernels", json::array()},
          {"booting", ""},
          {"boot_error", ""}};
}

constexpr std::size_t kMaxKnobFeatures = 512;
constexpr std::size_t kMaxKnobs = 256;
constexpr std::size_t kMaxDeny = 256;
constexpr std::size_t kMaxValueBytes = 4096;

std::string errno_name(int err) { return procfs::errno_text(err > 0 && err < 4096 ? err : EIO); }

// "NAME NO_OTHER ..." -> {NAME: true, OTHER: false}, at most
// kMaxKnobFeatures; the tokens past that are counted in `*left_out`.
json feature_states(const std::string& line, std::size_t* left_out) {
  json out = json::object();
  std::istringstream in(line);
  for (std::string token; in >> token;) {
    if (out.size() >= kMaxKnobFeatures) {
      ++*left_out;
      continue;
    }
    const bool off = token.starts_with("NO_");
    out[off ? token.substr(3) : token] = !off;
  }
  return out;
}

json features_json(const v1::KnobCapability& c, std::size_t* left_out) {
  json f = {{"path", c.path()}, {"writable", c.writable()}};
  if (!c.readable()) {
    f["error"] = errno_name(c.errno_value());
  } else if (!c.has_value() || c.value().size() > kMaxValueBytes * 8) {
    f["error"] = "the agent did not report the features' states (an agent older than this host)";
  } else {
    f["features"] = feature_states(c.value(), left_out);
    *left_out += c.features_left_out();  // the agent's own cut (more than it sends)
  }
  if (!c.writable() && c.errno_value() != 0) f["write_error"] = errno_name(c.errno_value());
  return f;
}

json knob_json(const v1::KnobCapability& c) {
  json k = {{"name", c.name()},
            {"path", c.path()},
            {"readable", c.readable()},
            {"writable", c.writable()},
            {"errno", c.errno_value()}};
  if (c.readable() && c.has_value() && c.value().size() <= kMaxValueBytes) k["value"] = c.value();
  if (c.errno_value() != 0) k["error"] = errno_name(c.errno_value());
  return k;
}

void set_stored(json& row, const store::AgentRecord& a) {
  row["hostname"] = a.hostname;
  row["kernel_release"] = a.kernel_release;
  row["pus"] = a.has_topology ? a.topology.pus : a.allowed_pus;
  row["allowed_pus"] = a.allowed_pus;
  row["instance_id"] = a.instance_id;
  row["last_seen_ns"] = a.last_seen_ns;
  row["boot_id"] = a.boot_id;
}

json kernels_json(const v1::Hello& hello) {
  json out = json::array();
  for (const v1::BootableKernel& k : hello.kernels()) {
    out.push_back({{"name", k.name()}, {"release", k.release()}, {"hook", k.hook()}});
  }
  return out;
}

void set_live(json& row, const LiveAgent& a) {
  row["connected"] = true;
  row["state"] = a.run_id.empty() ? "idle" : "running";
  row["run_id"] = a.run_id;
  row["waiting"] = a.waiting;
  row["hostname"] = a.hello.hostname();
  row["kernel_release"] = a.hello.kernel_release();
  row["allowed_pus"] = a.hello.allowed_pus();
  row["pus"] = a.has_topology ? a.topology.pus() : a.hello.allowed_pus();
  row["peer"] = a.channel ? a.channel->peer() : "";
  row["instance_id"] = a.instance_id;
  row["last_seen_ns"] = std::max(row["last_seen_ns"].get<long long>(), a.last_seen_ns);
  row["boot_id"] = a.boot_id;
  if (a.has_topology) row["arch"] = a.topology.arch();
  row["kernels"] = kernels_json(a.hello);
  row["booting"] = a.booting;
  row["boot_error"] = a.boot_error;
}

json event_body(const v1::Envelope& env) {
  switch (env.body_case()) {
    case v1::Envelope::kRunStarted:
      return {{"plan", plan_to_json(env.run_started().plan())},
              {"labels", std::map<std::string, std::string>(env.run_started().labels().begin(),
                                                            env.run_started().labels().end())},
              {"planned_iterations", env.run_started().planned_iterations()}};
    case v1::Envelope::kIterationResult:
      return report::iteration_json(store::iteration_record(env.iteration_result()));
    case v1::Envelope::kSample:
      return report::sample_json(store::sample_record(env.sample()));
    case v1::Envelope::kRunFinished:
      return {{"status", status_name(env.run_finished().status())},
              {"reason", env.run_finished().reason()},
              {"completed_iterations", env.run_finished().completed_iterations()},
              {"dropped_samples", env.run_finished().dropped_samples()}};
    case v1::Envelope::kError:
      return {{"code", v1::ErrorCode_Name(env.error().code())}, {"message", env.error().message()}};
    case v1::Envelope::kLog:
      return {{"level", env.log().level()},
              {"message", env.log().message()},
              {"waiting", env.log().waiting()}};
    default:
      return json::object();
  }
}

}  // namespace

json agent_knobs_json(const std::string& agent_id, const LiveAgent& agent) {
  const v1::Hello& h = agent.hello;
  json out = {{"agent_id", agent_id},
              {"instance_id", agent.instance_id},
              {"hostname", h.hostname()},
              {"kernel_release", h.kernel_release()},
              {"features", {{"error", "the agent reported no sched features file"}}},
              {"knobs", json::array()},
              {"bisect_deny", json::array()}};
  std::size_t features_left_out = 0, knobs_left_out = 0, deny_left_out = 0;
  for (const v1::KnobCapability& c : h.knobs()) {
    if (c.name() == "sched_features") {
      out["features"] = features_json(c, &features_left_out);
    } else if (out["knobs"].size() < kMaxKnobs) {
      out["knobs"].push_back(knob_json(c));
    } else {
      ++knobs_left_out;
    }
  }
  for (const std::string& name : h.bisect_deny()) {
    if (out["bisect_deny"].size() < kMaxDeny)
      out["bisect_deny"].push_back(name);
    else
      ++deny_left_out;
  }
  if (features_left_out + knobs_left_out + deny_left_out > 0)
    out["left_out"] = {
        {"features", features_left_out}, {"knobs", knobs_left_out}, {"bisect_deny", deny_left_out}};
  return out;
}

std::map<std::string, int> queue_positions(const std::vector<store::QueuedRun>& rows) {
  std::map<std::string, int> ahead;  // per agent: runs seen so far
  std::map<std::string, int> out;
  for (const store::QueuedRun& r : rows) {
    if (r.state == "queued") out[r.run_id] = ahead[r.agent_id];
    if (r.state == "queued" || r.state == "running" || r.state == "disconnected") {
      ++ahead[r.agent_id];  // a disconnected run still holds its agent
    }
  }
  return out;
}

json agents_json(const std::vector<store::AgentRecord>& stored,
                 const std::map<std::string, LiveAgent>& live,
                 const std::map<std::string, int>& queued) {
  std::map<std::string, json> rows;
  for (const store::AgentRecord& a : stored) {
    json& row = rows.try_emplace(a.agent_id, agent_row(a.agent_id)).first->second;
    set_stored(row, a);
  }
  for (const auto& [id, a] : live) {
    set_live(rows.try_emplace(id, agent_row(id)).first->second, a);
  }
  for (const auto& [id, n] : queued) {
    rows.try_emplace(id, agent_row(id)).first->second["queued"] = n;
  }
  json out = json::array();
  for (auto& [id, row] : rows) out.push_back(std::move(row));
  return {{"agents", out}};
}

// A row's reason as the queue shows it: an abort waiting for a
// disconnected agent says so (the Abort goes out when the agent is back).
static std::string queue_reason(const store::QueuedRun& r) {
  if (r.state != "disconnected" || r.abort_note.empty()) return r.reason;
  return r.reason + "; abort pending (" + r.abort_note + "): sent when the agent is back";
}

json queue_json(const std::vector<store::QueuedRun>& rows,
                const std::map<std::string, int>& positions,
                const std::map<std::string, LiveAgent>& live) {
  json out = json::array();
  for (const store::QueuedRun& r : rows) {
    auto pos = positions.find(r.run_id);
    const auto agent = live.find(r.agent_id);
    const LiveAgent* runner =
        r.state == "running" && agent != live.end() && agent->second.run_id == r.run_id
            ? &agent->second
            : nullptr;
    out.push_back({{"run_id", r.run_id},
                   {"agent_id", r.agent_id},
                   {"plan_name", r.plan_name},
                   {"state", runner && runner->aborting ? "aborting" : r.state},
                   {"reason", queue_reason(r)},
                   {"waiting", runner ? runner->waiting : ""},
                   {"labels", r.labels},
                   {"submitted_by", r.submitted_by},
                   {"submitted_at_ns", r.submitted_at_ns},
                   {"dispatched_at_ns", r.dispatched_at_ns},
                   {"finished_at_ns", r.finished_at_ns},
                   {"queue_position", pos == positions.end() ? -1 : pos->second}});
  }
  return {{"runs", out}};
}

json event_json(const store::RunEvent& event) {
  return {{"id", event.id}, {"kind", body_name(event.env)}, {"body", event_body(event.env)}};
}

}  // namespace schedrig::control
