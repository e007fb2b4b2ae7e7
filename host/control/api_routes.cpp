// Control's HTTP API routes (docs/architecture.md "HTTP API").
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "common/auth/token.h"
#include "common/ids.h"
#include "common/printable.h"
#include "host/control/api_error.h"
#include "host/control/api_json.h"
#include "host/control/api_target.h"
#include "host/control/boot_request.h"
#include "host/control/control.h"
#include "host/control/events_poll.h"
#include "host/control/nightly_request.h"
#include "host/report/results_json.h"

namespace schedrig::control {
namespace {

using nlohmann::json;
using server::ApiResponse;

constexpr std::size_t kMinRunIdPrefix = 8;
constexpr unsigned kAnswerLater = 0;  // route() status: `done` is called later

ApiResponse json_response(unsigned status, const json& body) {
  return {status, body.dump(2) + "\n", "application/json"};
}

void want_method(const server::ApiRequest& r, const char* method) {
  if (r.method != method) {
    throw ApiError(405, fmt::format("{} is not allowed here; use {}", printable(r.method), method));
  }
}

bool valid_state_filter(const std::string& s) {
  return s.empty() || s == "queued" || s == "running" || s == "disconnected" ||
         s == "interrupted" || s == "ok" || s == "failed" || s == "aborted";
}

}  // namespace

void Control::handle(server::ApiRequest request, std::function<void(ApiResponse)> done) {
  ApiResponse response;
  try {
    response = route(request, done);
    if (response.status == kAnswerLater) return;
  } catch (const ApiError& e) {
    response = json_response(e.status(), e.body());
  } catch (const std::exception& e) {
    spdlog::error("{} {} from {}: {}", printable(request.method), printable(request.target),
                  request.peer, e.what());
    response = json_response(500, {{"error", e.what()}});
  }
  done(std::move(response));
}

ApiResponse Control::route(const server::ApiRequest& r, std::function<void(ApiResponse)>& done) {
  if (r.target == "/metrics" || r.target.starts_with("/metrics?")) {
    want_method(r, "GET");
    return get_metrics();
  }
  const std::optional<ApiTarget> target = parse_api_target(r.target);
  if (!target) throw ApiError(404, fmt::format("no such path: {}", printable(r.target)));
  const std::vector<std::string>& seg = target->segments;
  if (seg.size() == 1 && seg[0] == "agents") {
    want_method(r, "GET");
    return get_agents();
  }
  if (seg.size() == 3 && seg[0] == "agents" && seg[2] == "knobs") {
    want_method(r, "GET");
    return get_agent_knobs(seg[1]);
  }
  if (seg.size() == 3 && seg[0] == "agents" && seg[2] == "boot") {
    want_method(r, "POST");
    return post_boot(seg[1], r);
  }
  if (seg.size() == 1 && seg[0] == "nightly") {
    want_method(r, "POST");
    return post_nightly(r);
  }
  if (seg.size() == 1 && seg[0] == "runs") {
    if (r.method == "POST") return post_runs(r);
    want_method(r, "GET");
    auto state = target->query.find("state");
    return get_runs(state == target->query.end() ? "" : state->second);
  }
  if (seg.size() == 2 && seg[0] == "runs") {
    want_method(r, "GET");
    return get_run(seg[1], query_int(*target, "histograms", 0, 0, 1) == 1);
  }
  if (seg.size() == 3 && seg[0] == "runs" && seg[2] == "abort") {
    want_method(r, "POST");
    return post_abort(seg[1], r.principal.name);
  }
  if (seg.size() == 3 && seg[0] == "runs" && seg[2] == "events") {
    want_method(r, "GET");
    const long long after = query_int(*target, "after", 0, 0, INT64_MAX);
    const long long wait_s =
        query_int(*target, "wait_s", options_.default_wait.count(), 0, options_.max_wait.count());
    get_events(seg[1], after, std::chrono::seconds(wait_s), done);
    return {kAnswerLater, "", ""};
  }
  throw ApiError(404, fmt::format("no such path: {}", printable(r.target)));
}

ApiResponse Control::get_agents() const {
  std::map<std::string, int> queued;
  for (const store::QueuedRun& r : store_.queued_runs("queued")) ++queued[r.agent_id];
  return json_response(200, agents_json(store_.agents(), dispatcher_.live(), queued));
}

ApiResponse Control::get_agent_knobs(const std::string& agent_id) const {
  const std::map<std::string, LiveAgent> live = dispatcher_.live();
  const auto it = live.find(agent_id);
  if (it != live.end()) return json_response(200, agent_knobs_json(agent_id, it->second));
  for (const store::AgentRecord& a : store_.agents())
    if (a.agent_id == agent_id)
      throw ApiError(409, fmt::format("agent {} is not connected: its knobs are known only from "
                                      "its Hello, while it is",
                                      printable(agent_id)));
  throw ApiError(404, fmt::format("no such agent: {}", printable(agent_id)));
}

ApiResponse Control::post_runs(const server::ApiRequest& r) {
  const Submission submission = parse_runs_request(r.body);
  json runs = json::array();
  const std::vector<SubmittedRun> submitted = submit(submission, r.principal.name);
  if (submission.check_only) return json_response(200, {{"runs", runs}, {"checked", true}});
  const std::map<std::string, LiveAgent> live = dispatcher_.live();
  for (const SubmittedRun& s : submitted) {
    runs.push_back({{"run_id", s.run_id},
                    {"agent_id", s.agent_id},
                    {"queue_position", s.queue_position},
                    {"connected", live.count(s.agent_id) > 0}});
  }
  return json_response(201, {{"runs", runs}});
}

ApiResponse Control::get_runs(const std::string& state) const {
  if (!valid_state_filter(state)) {
    throw ApiError(400, fmt::format("state={}: want queued, running, ok, failed or aborted",
                                    printable(state)));
  }
  return json_response(200, queue_json(store_.queued_runs(state), queue_positions(active_rows()),
                                       dispatcher_.live()));
}

ApiResponse Control::get_run(const std::string& id, bool histograms) const {
  const std::string run_id = resolve_run_id(id);
  std::vector<store::RunRecord> runs =
      store_.runs(run_id, {.sample_summaries = true, .histograms = histograms});
  std::erase_if(runs, [&](const store::RunRecord& run) { return run.run_id != run_id; });
  if (runs.empty()) {
    std::optional<store::RunRecord> queued = store_.queued_run_record(run_id);
    if (!queued) throw ApiError(404, fmt::format("no run matches '{}'", printable(id)));
    runs.push_back(std::move(*queued));
  }
  // With histograms the answer is written compact: they are most of its
  // bytes, and indentation would double them (clients stop at 64 MiB).
  if (histograms) return {200, report::results_json(runs).dump() + "\n", "application/json"};
  return json_response(200, report::results_json(runs));
}

ApiResponse Control::get_metrics() const {
  if (options_.metrics == nullptr) throw ApiError(404, "this server keeps no metrics");
  metrics::ScrapeState now;
  now.agents_connected = dispatcher_.live().size();
  for (const store::QueuedRun& q : store_.queued_runs()) ++now.runs_by_state[q.state];
  now.nightly = store_.nightly_verdicts();
  now.detector_failed_nights = store_.detector_failed_nights();
  return {200, options_.metrics->scrape(now), metrics::kMetricsContentType};
}

ApiResponse Control::post_nightly(const server::ApiRequest& r) {
  store::NightRecord night = parse_night_summary(r.body);
  night.received_at_ns = wall_clock_ns();
  night.submitted_by = r.principal.name;
  store_.save_night(night);
  spdlog::info("night {} from operator {}: {} verdict row(s){}{}", printable(night.night),
               printable(night.submitted_by), night.rows.size(),
               night.regression ? ", a gated regression" : "",
               night.detector_failed ? ", the detector failed" : "");
  return json_response(201, {{"night", night.night}, {"rows", night.rows.size()}});
}

ApiResponse Control::post_abort(const std::string& id, const std::string& operator_name) {
  const std::string run_id = resolve_run_id(id);
  const AbortOutcome outcome = abort(run_id, fmt::format("operator '{}'", operator_name));
  return json_response(200, {{"run_id", run_id}, {"state", outcome.state}});
}

ApiResponse Control::post_boot(const std::string& agent_id, const server::ApiRequest& r) {
  if (!auth::valid_principal_name(agent_id))
    throw ApiError(404, fmt::format("no such agent: {}", printable(agent_id)));
  const BootRequest req = parse_boot_request(r.body);
  const std::string reason = fmt::format("operator '{}'{}{}", r.principal.name,
                                         req.reason.empty() ? "" : ": ", req.reason);
  const BootOutcome b = dispatcher_.boot(agent_id, req.kernel, reason);
  return json_response(202, {{"agent_id", agent_id},
                             {"kernel", b.kernel},
                             {"release", b.release},
                             {"hook", b.hook},
                             {"boot_id", b.boot_id},
                             {"instance_id", b.instance_id}});
}

void Control::get_events(const std::string& id, long long after, std::chrono::seconds wait,
                         std::function<void(ApiResponse)>& done) {
  EventsQuery q;
  q.run_id = resolve_run_id(id);
  auto row = store_.queued_run(q.run_id);
  if (row) {
    q.agent_id = row->agent_id;
    // Nothing of a run arrives before it was submitted: skip what came before
    // (a minute of margin for the clock).
    after = std::max(after, reader_.last_envelope_before(row->submitted_at_ns - 60'000'000'000LL));
  } else {
    std::vector<store::RunRecord> runs =
        store_.runs(q.run_id, {.sample_summaries = false, .histograms = false});
    if (runs.empty()) throw ApiError(404, fmt::format("no run matches '{}'", printable(id)));
    q.agent_id = runs.front().agent_id;
  }
  q.after = after;
  q.deadline = std::chrono::steady_clock::now() + wait;
  q.interval = options_.poll_interval;
  q.state = [this, run_id = q.run_id] { return run_state(run_id); };
  auto poll = std::make_shared<EventsPoll>(
      executor_, reader_, std::move(q),
      [done = std::move(done)](json body) { done(json_response(200, body)); });
  poll->start();
}

std::string Control::resolve_run_id(const std::string& id) const {
  const std::vector<std::string> known = store_.known_run_ids(id);
  const std::set<std::string> matches(known.begin(), known.end());
  if (matches.count(id)) return id;
  if (matches.empty()) throw ApiError(404, fmt::format("no run matches '{}'", printable(id)));
  if (id.size() < kMinRunIdPrefix) {
    throw ApiError(400, fmt::format("'{}': give at least {} characters of the run id",
                                    printable(id), kMinRunIdPrefix));
  }
  if (matches.size() > 1) {
    throw ApiError(409, fmt::format("'{}' matches {} runs ({}); give more of the run id",
                                    printable(id), matches.size(), fmt::join(matches, ", ")));
  }
  return *matches.begin();
}

std::string Control::run_state(const std::string& run_id) const {
  if (auto row = store_.queued_run(run_id)) {
    return row->state == "running" && dispatcher_.aborting(run_id) ? "aborting" : row->state;
  }
  return store_.run_progress(run_id, INT64_MAX, INT64_MAX).status;
}

}  // namespace schedrig::control
