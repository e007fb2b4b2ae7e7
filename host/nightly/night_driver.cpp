#include "host/nightly/night_driver.h"

#include <thread>

#include <fmt/format.h>

#include "common/error.h"
#include "common/printable.h"
#include "host/client/api_client.h"
#include "host/client/api_paths.h"
#include "host/client/api_views.h"

namespace schedrig::nightly {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// A slot that cannot go on: its reason; `interrupted` when a signal
// stopped it (the slot is left as it stood, for --resume).
struct SlotFailure {
  std::string reason;
  bool interrupted = false;
};

bool ended(const std::string& state) {
  return state == "ok" || state == "failed" || state == "aborted" || state == "interrupted";
}

class AgentNight {
 public:
  AgentNight(const NightContext& ctx, const NightAgent& agent)
      : ctx_(ctx), agent_(agent), api_(ctx.target) {
    if (ctx.stop) api_.stop_on_signals();
  }

  std::string run() {
    const std::vector<SlotRecord> slots = ctx_.state->slots(agent_.agent_id);
    for (SlotRecord r : slots) {
      if (r.state == "done") continue;
      try {
        run_slot(r, slots.size());
      } catch (const SlotFailure& f) {
        if (f.interrupted) return fmt::format("{}: interrupted", agent_.agent_id);
        r.state = "failed";
        r.reason = f.reason;
        ctx_.state->update(agent_.agent_id, r);
        say(r, slots.size(), "failed: " + f.reason);
        return fmt::format("{}: slot {} ({}): {}", agent_.agent_id, r.slot.index, r.slot.kernel,
                           f.reason);
      }
    }
    return "";
  }

 private:
  void run_slot(SlotRecord& r, std::size_t of) {
    if (r.slot.reboot) {
      boot(r, of);
    } else {
      const json a = agent_row();
      r.boot_id = a.value("boot_id", "");
      r.release = a.value("kernel_release", "");
    }
    r.state = "running";
    ctx_.state->update(agent_.agent_id, r);
    for (const LabPlan& plan : ctx_.plans) {
      if (!r.runs.count(plan.name)) {
        r.runs[plan.name] = submit(plan, r);
        ctx_.state->update(agent_.agent_id, r);
      }
      const std::string state = wait_run(r.runs[plan.name]);
      say(r, of, fmt::format("{}: run {} {}", plan.name, r.runs[plan.name].substr(0, 8), state));
    }
    r.state = "done";
    ctx_.state->update(agent_.agent_id, r);
  }

  // Boots the slot's kernel unless a resumed night finds it booted already.
  void boot(SlotRecord& r, std::size_t of) {
    auto listed = agent_.kernels.find(r.slot.kernel);
    if (listed == agent_.kernels.end())
      throw SlotFailure{fmt::format("the agent does not list kernel '{}'", r.slot.kernel)};
    const AgentKernel& want = listed->second;
    const json now = agent_row();
    if (r.state == "running") {
      if (now.value("boot_id", "") == r.boot_id) return;  // its boot is still up: runs carry on
      abandon_runs(r);  // that boot is gone: the slot starts again on a new one
    }
    if (r.state == "booting" && now.value("boot_id", "") != r.boot_id &&
        now.value("kernel_release", "") == want.release) {
      r.boot_id = now.value("boot_id", "");  // the boot happened before the host stopped
      r.release = want.release;
      return;
    }
    r.state = "booting";
    r.boot_id = now.value("boot_id", "");
    ctx_.state->update(agent_.agent_id, r);
    say(r, of, fmt::format("booting {} ({})", r.slot.kernel, want.release));
    call([&] {
      api_.post_json(
          client::agents_path() + "/" + client::percent_encoded(agent_.agent_id) + "/boot",
          {{"kernel", r.slot.kernel},
           {"reason", fmt::format("nightly {} slot {}", ctx_.state->night(), r.slot.index)}});
    });
    const json back = wait_back(r.boot_id);
    r.boot_id = back.value("boot_id", "");
    r.release = back.value("kernel_release", "");
    if (r.release != want.release)
      throw SlotFailure{fmt::format("came back on {} instead of {} ({})", r.release, r.slot.kernel,
                                    want.release)};
    say(r, of, fmt::format("back on {} (boot {})", r.release, r.boot_id.substr(0, 8)));
  }

  // A resumed slot whose boot is gone: its runs that have not ended are
  // aborted (a queued run would keep the agent from booting), and forgotten.
  void abandon_runs(SlotRecord& r) {
    for (const auto& [name, run_id] : r.runs) {
      try {
        api_.post_json(client::abort_path(run_id), json::object());
      } catch (const Error&) {  // ended already: nothing to abort
      }
    }
    r.runs.clear();
  }

  // This agent's row once it is connected with another boot_id than `old`
  // and has sent its topology.
  json wait_back(const std::string& old) {
    const auto deadline = Clock::now() + ctx_.boot_timeout;
    while (Clock::now() < deadline) {
      const json a = agent_row_or_empty();
      if (a.value("connected", false) && a.value("boot_id", "") != old &&
          a.value("booting", "").empty() && a.value("pus", 0) > 0)
        return a;
      if (a.value("connected", false) && a.value("boot_id", "") == old &&
          a.value("booting", "").empty() && !a.value("boot_error", "").empty())
        throw SlotFailure{"the agent could not boot it: " + a.value("boot_error", "")};
      pause();
    }
    throw SlotFailure{fmt::format("did not come back within {} s", ctx_.boot_timeout.count())};
  }

  std::string submit(const LabPlan& plan, const SlotRecord& r) {
    json labels = {{"night", ctx_.state->night()},
                   {"kernel", r.slot.kernel},
                   {"boot", std::to_string(r.slot.boot)},
                   {"slot", std::to_string(r.slot.index)}};
    json body = {{"agents", {agent_.agent_id}},
                 {"plan_yaml", plan.yaml},
                 {"plan_name", plan.name},
                 {"labels", labels}};
    json answer;
    call([&] { answer = api_.post_json(client::runs_path(), body); });
    try {
      return answer.at("runs").at(0).at("run_id").get<std::string>();
    } catch (const json::exception&) {
      throw SlotFailure{"the server's answer to a run names no run"};
    }
  }

  // The run's final queue state.
  std::string wait_run(const std::string& run_id) {
    const auto deadline = Clock::now() + ctx_.run_timeout;
    while (Clock::now() < deadline) {
      json runs;
      call([&] { runs = api_.get_json(client::runs_path()); });
      for (const json& row : runs.value("runs", json::array())) {
        if (row.value("run_id", "") == run_id && ended(row.value("state", "")))
          return row.value("state", "");
      }
      pause();
    }
    throw SlotFailure{
        fmt::format("run {} did not end within {} s", run_id, ctx_.run_timeout.count())};
  }

  // This agent's row of GET /api/v1/agents; an empty object when the
  // server does not list it.
  json fetch_agent_row() {
    return client::agent_row_from_json(api_.get_json(client::agents_path()), agent_.agent_id)
        .value_or(json::object());
  }
  // The same while a box boots: a server that does not answer is asked again.
  json agent_row_or_empty() {
    try {
      return fetch_agent_row();
    } catch (const Error& e) {  // the server restarting: asked again
      if (e.kind() == ErrorKind::kInterrupted) throw SlotFailure{"interrupted", true};
    }
    return json::object();
  }
  json agent_row() {
    json a;
    call([&] { a = fetch_agent_row(); });
    if (a.empty()) throw SlotFailure{"the server no longer knows this agent"};
    return a;
  }

  template <typename F>
  void call(F f) {
    try {
      f();
    } catch (const Error& e) {
      throw SlotFailure{e.what(), e.kind() == ErrorKind::kInterrupted};
    }
  }

  // One poll interval, or less when a signal stops the night.
  void pause() const {
    const auto until = Clock::now() + ctx_.poll;
    while (Clock::now() < until) {
      if (ctx_.stop && ctx_.stop->load()) throw SlotFailure{"interrupted", true};
      std::this_thread::sleep_for(
          std::min<Clock::duration>(ctx_.poll, std::chrono::milliseconds(50)));
    }
  }

  void say(const SlotRecord& r, std::size_t of, const std::string& what) const {
    if (!ctx_.progress) return;
    ctx_.progress(
        printable(fmt::format("{}: slot {}/{} {} (boot {}/{}): {}", agent_.agent_id, r.slot.index,
                              of, r.slot.kernel, r.slot.boot, ctx_.lab->boots_per_kernel, what)));
  }

  const NightContext& ctx_;
  const NightAgent& agent_;
  client::ApiClient api_;
};

}  // namespace

std::string run_agent_night(const NightContext& ctx, const NightAgent& agent) {
  try {
    return AgentNight(ctx, agent).run();
  } catch (const std::exception& e) {  // the state file, a client that cannot be made
    return fmt::format("{}: {}", agent.agent_id, e.what());
  }
}

std::vector<LabPlan> night_plans(const LabFile& lab, const std::string& selftest_yaml) {
  std::vector<LabPlan> out = lab.plans;
  if (!selftest_yaml.empty()) out.push_back({"", "selftest", selftest_yaml});
  return out;
}

std::string builtin_selftest_yaml() {
  return R"(name: selftest
iterations: 8
duration_s: 1
warmup_s: 0
cooldown_s: 0
order: interleaved
cases:
  - name: selftest-wakeup
    workload: wakeup
    params: {message_threads: 1, workers_per_message: 2}
variants:
  - name: as-found
  - name: antagonist
    antagonist: {duty_pct: 80}
)";
}

}  // namespace schedrig::nightly
