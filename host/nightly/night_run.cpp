#include "host/nightly/night_run.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "common/cli_error.h"
#include "common/ids.h"
#include "common/plan/plan_yaml.h"
#include "common/printable.h"
#include "common/stop_signal.h"
#include "host/client/api_client.h"
#include "host/client/api_paths.h"
#include "host/client/remote_runs.h"
#include "host/nightly/night_agents.h"
#include "host/nightly/night_driver.h"
#include "host/nightly/night_files.h"
#include "host/nightly/night_history.h"
#include "host/nightly/night_report.h"
#include "host/nightly/night_state.h"
#include "host/nightly/night_verdicts.h"
#include "host/report/format.h"

namespace schedrig::nightly {
namespace {

namespace fs = std::filesystem;

// A resumed night's state must be this lab file's: its agents among the
// night's, each with the lab's schedule.
void check_resumed(const NightState& state, const LabFile& lab,
                   const std::vector<NightAgent>& agents, const std::string& path) {
  const std::vector<NightSlot> want = night_slots(lab);
  for (const std::string& id : state.agents()) {
    const bool known = std::any_of(agents.begin(), agents.end(),
                                   [&](const NightAgent& a) { return a.agent_id == id; });
    const std::vector<SlotRecord> slots = state.slots(id);
    bool same = known && slots.size() == want.size();
    for (std::size_t i = 0; same && i < want.size(); ++i)
      same = slots[i].slot.index == want[i].index && slots[i].slot.kernel == want[i].kernel &&
             slots[i].slot.boot == want[i].boot && slots[i].slot.reboot == want[i].reboot;
    if (!same)
      throw CliError(ErrorKind::kUsage,
                     printable(fmt::format("{}: agent {}'s slots are not {}'s schedule: resume a "
                                           "night with the lab file it began with",
                                           path, id, lab.path)));
  }
}

std::unique_ptr<NightState> open_state(const LabFile& lab, const NightOptions& o,
                                       const std::vector<NightAgent>& agents) {
  const std::string path = (fs::path(o.out_dir) / "night.json").string();
  if (o.resume) {
    std::unique_ptr<NightState> state = NightState::load(path);
    check_resumed(*state, lab, agents, path);
    return state;
  }
  std::error_code ec;
  fs::create_directories(o.out_dir, ec);
  if (ec)
    throw CliError(ErrorKind::kUsage,
                   fmt::format("{}: cannot make it: {}", o.out_dir, ec.message()));
  if (fs::exists(path))
    throw CliError(
        ErrorKind::kUsage,
        fmt::format("{}: a night is there already (--resume {} carries it on)", path, o.out_dir));
  std::vector<std::string> ids;
  for (const NightAgent& a : agents) ids.push_back(a.agent_id);
  return std::make_unique<NightState>(path, report::format_utc(wall_clock_ns()), lab.path, ids,
                                      night_slots(lab));
}

}  // namespace

std::string selftest_text(const LabFile& lab, const std::string& selftest_plan) {
  if (!lab.selftest) return "";
  if (selftest_plan.empty()) return builtin_selftest_yaml();
  const std::string text = read_bounded_file(selftest_plan, kMaxPlanFileBytes);
  v1::Plan plan;
  try {
    plan = parse_plan_yaml(text, selftest_plan);
  } catch (const PlanError& e) {
    throw CliError(ErrorKind::kUsage, e.what());
  }
  bool hogs = plan.variants_size() >= 2;
  for (int i = 1; i < plan.variants_size(); ++i)
    hogs = hogs && plan.variants(i).antagonist().duty_pct() > 0;
  if (!hogs)
    throw CliError(ErrorKind::kUsage,
                   fmt::format("{}: a selftest plan needs variants after its first, each with an "
                               "antagonist: {{duty_pct: P}} (docs/nightly.md \"Selftest\")",
                               selftest_plan));
  return text;
}

void check_plans_on_agents(client::ApiClient& api, const std::vector<LabPlan>& plans,
                           const std::vector<NightAgent>& agents) {
  for (const NightAgent& a : agents) {
    for (const LabPlan& plan : plans) {
      try {
        api.post_json(client::runs_path(), {{"agents", {a.agent_id}},
                                            {"plan_yaml", plan.yaml},
                                            {"plan_name", plan.name},
                                            {"check_only", true}});
      } catch (const Error& e) {
        throw CliError(e.kind(),
                       fmt::format("plan {} on agent {}: {}", plan.name, a.agent_id, e.what()));
      }
    }
  }
}

namespace {

// Every agent's slots, one thread each; the reasons agents stopped.
std::vector<std::string> run_agents(const NightContext& ctx,
                                    const std::vector<NightAgent>& agents) {
  std::vector<std::string> reasons(agents.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < agents.size(); ++i)
    threads.emplace_back([&, i] { reasons[i] = run_agent_night(ctx, agents[i]); });
  for (auto& t : threads) t.join();
  std::erase(reasons, "");
  return reasons;
}

// The night's runs, fetched whole, grouped by agent, plan and kernel.
NightRuns fetch_runs(client::ApiClient& api, const NightState& state,
                     std::vector<std::string>& problems) {
  NightRuns out;
  for (const std::string& agent : state.agents()) {
    for (const SlotRecord& r : state.slots(agent)) {
      for (const auto& [plan, run_id] : r.runs) {
        store::RunRecord run;
        try {
          run = client::fetch_run(api, run_id);
        } catch (const std::exception& e) {
          problems.push_back(fmt::format("{} slot {} {}: run {} cannot be read: {}", agent,
                                         r.slot.index, plan, run_id, e.what()));
          continue;
        }
        if (plan == "selftest") {
          out.selftests[agent].push_back(std::move(run));
          continue;
        }
        auto& kernels = out.plans[agent][plan];
        auto it = std::find_if(kernels.begin(), kernels.end(),
                               [&](const KernelRuns& k) { return k.kernel == r.slot.kernel; });
        if (it == kernels.end()) it = kernels.insert(kernels.end(), KernelRuns{r.slot.kernel, {}});
        it->runs.push_back(std::move(run));
      }
    }
  }
  return out;
}

// Each agent's baseline per plan: the lab's kernel from this night, or the
// newest last_good in the history (else the night's first kernel, said).
void find_baselines(client::ApiClient& api, const LabFile& lab, const NightOptions& o,
                    NightRuns& runs, std::vector<std::string>& notes) {
  for (auto& [agent, plans] : runs.plans) {
    for (auto& [plan, kernels] : plans) {
      if (kernels.empty()) continue;
      const std::string want = lab.baseline_kernel;
      if (!want.empty()) {
        for (const KernelRuns& k : kernels)
          if (k.kernel == want) runs.baselines[agent][plan] = k;
        continue;
      }
      if (auto good = last_good(o.history, agent, plan)) {
        KernelRuns base{good->kernel, {}};
        for (const std::string& id : good->runs) base.runs.push_back(client::fetch_run(api, id));
        notes.push_back(fmt::format("{} {}: baseline last_good = {} (night {})", agent, plan,
                                    good->kernel, good->night));
        runs.baselines[agent][plan] = std::move(base);
        continue;
      }
      notes.push_back(
          fmt::format("{} {}: no last_good yet: the baseline is the night's first "
                      "kernel, {}",
                      agent, plan, kernels.front().kernel));
      runs.baselines[agent][plan] = kernels.front();
    }
  }
}

// The history lines of a night that stands: per agent, plan and kernel,
// passed when no gated row of it failed and every run of it ended ok.
std::vector<HistoryEntry> history_of(const std::string& night, const NightRuns& runs,
                                     const NightVerdicts& v) {
  std::vector<HistoryEntry> out;
  for (const auto& [agent, plans] : runs.plans) {
    for (const auto& [plan, kernels] : plans) {
      for (const KernelRuns& k : kernels) {
        HistoryEntry e{night, agent, plan, k.kernel, true, {}};
        for (const store::RunRecord& r : k.runs) {
          e.runs.push_back(r.run_id);
          e.passed = e.passed && r.status == "ok";
        }
        for (const KernelVerdict& row : v.rows) {
          if (row.agent == agent && row.plan == plan && row.kernel == k.kernel && row.gate_failed)
            e.passed = false;
        }
        out.push_back(std::move(e));
      }
    }
  }
  return out;
}

// The night's agents. A resumed night may find a box still booting (the
// host stopped after asking for the boot): it waits for agents to be back,
// up to the boot timeout.
// OUT/report.html (docs/reports.md "A night"): the runs the verdicts read,
// any other from the server. A page that cannot be made is a warning on
// stderr (false): the night's verdict stands.
bool write_report(const std::string& out_dir, const NightState& state,
                  const nlohmann::json& summary, const NightRuns& runs, client::ApiClient& api) {
  std::map<std::string, const store::RunRecord*> by_id;
  for (const auto& [agent, plans] : runs.plans) {
    for (const auto& [plan, kernels] : plans) {
      for (const KernelRuns& k : kernels) {
        for (const store::RunRecord& r : k.runs) by_id[r.run_id] = &r;
      }
    }
  }
  const RunFetch fetch = [&](const std::string& id) {
    const auto found = by_id.find(id);
    return found != by_id.end() ? *found->second : client::fetch_run(api, id);
  };
  try {
    const std::string html = report::html::nightly_report_html(night_report_data(
        state, summary, fetch,
        "schedrig nightly (OUT/report.html; again: schedrig report --nightly OUT)"));
    replace_file((fs::path(out_dir) / "report.html").string(), html);
    return true;
  } catch (const std::exception& e) {
    std::cerr << printable(
                     fmt::format("warning: {}/report.html was not written: {}", out_dir, e.what()))
              << "\n";
    return false;
  }
}

std::vector<NightAgent> night_agents(client::ApiClient& api, const LabFile& lab,
                                     const NightOptions& o) {
  const auto deadline = std::chrono::steady_clock::now() + o.boot_timeout;
  while (true) {
    try {
      return resolve_night_agents(lab, api.get_json(client::agents_path()));
    } catch (const CliError& e) {
      if (!o.resume || e.kind() != ErrorKind::kUnreachable ||
          std::chrono::steady_clock::now() >= deadline)
        throw;
      if (o.progress) o.progress(fmt::format("resuming: {}; waiting", e.what()));
      std::this_thread::sleep_for(o.poll);
    }
  }
}

}  // namespace

NightOutcome run_night(const LabFile& lab, const NightOptions& o) {
  client::ApiClient api(o.target);
  const std::vector<NightAgent> agents = night_agents(api, lab, o);
  const std::vector<LabPlan> plans = night_plans(lab, selftest_text(lab, o.selftest_plan));
  check_plans_on_agents(api, plans, agents);  // a bad plan: exit 2 before any boot
  std::unique_ptr<NightState> state = open_state(lab, o, agents);
  const std::atomic<bool>& stop = install_stop_signals();
  NightContext ctx;
  ctx.lab = &lab;
  ctx.target = o.target;
  ctx.state = state.get();
  ctx.plans = plans;
  ctx.stop = &stop;
  ctx.boot_timeout = o.boot_timeout;
  ctx.poll = o.poll;
  ctx.progress = o.progress;
  std::vector<std::string> infrastructure = run_agents(ctx, agents);
  if (stop.load())
    throw CliError(
        ErrorKind::kInterrupted,
        fmt::format("stopped by a signal: the night stands in {}/night.json; --resume {} "
                    "carries it on",
                    o.out_dir, o.out_dir));

  std::vector<std::string> problems, notes;
  NightRuns runs = fetch_runs(api, *state, problems);
  find_baselines(api, lab, o, runs, notes);
  NightVerdicts v = judge_night(lab, runs);
  v.notes = std::move(notes);
  v.problems.insert(v.problems.begin(), problems.begin(), problems.end());

  NightOutcome out;
  out.exit_code = !infrastructure.empty() || v.detector_failed ? 3 : v.regression ? 1 : 0;
  out.text = summary_text(state->night(), lab, v, infrastructure);
  out.text += fmt::format("exit {}: {}\n", out.exit_code,
                          out.exit_code == 0   ? "clean"
                          : out.exit_code == 1 ? "a gated regression"
                                               : "infrastructure or detector failed");
  const nlohmann::json summary =
      summary_json(state->night(), lab, v, infrastructure, out.exit_code);
  out.json = summary.dump(2) + "\n";
  try {
    api.post(client::nightly_path(), summary.dump());  // serve keeps the verdicts for /metrics
  } catch (const std::exception& e) {
    out.text += printable(fmt::format("warning: the server did not take the night's verdicts: {}",
                                      e.what())) +
                "\n";
  }
  if (infrastructure.empty() && !v.detector_failed && !o.history.empty()) {
    try {
      append_history(o.history, history_of(state->night(), runs, v));
    } catch (const std::exception& e) {
      out.text +=
          printable(fmt::format("warning: the history was not written: {}", e.what())) + "\n";
    }
  }
  replace_file((fs::path(o.out_dir) / "summary.txt").string(), out.text);
  replace_file((fs::path(o.out_dir) / "summary.json").string(), out.json);
  if (write_report(o.out_dir, *state, summary, runs, api)) {
    out.text += printable(fmt::format("page: {}/report.html\n", o.out_dir));
  }
  return out;
}

}  // namespace schedrig::nightly
