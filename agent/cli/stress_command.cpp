// `schedrig-agent stress NAME ...`: one workload run at the console, one
// subcommand per registry entry, flags generated from its parameters
// (fork_max <-> --fork-max).
#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "agent/cli/commands.h"
#include "agent/cli/state_options.h"
#include "agent/placement/placement.h"
#include "agent/runner/watchdog.h"
#include "agent/tools/tool_error.h"
#include "agent/topology/topology.h"
#include "agent/workloads/registry.h"
#include "agent/workloads/tool_case.h"
#include "agent/workloads/workload_error.h"
#include "common/cli_error.h"
#include "common/cpulist.h"
#include "common/number_format.h"
#include "common/printable.h"
#include "common/stop_signal.h"

namespace schedrig::agent {
namespace {

struct StressOptions {
  std::map<std::string, std::string> params;  // only flags given
  std::string cpus;
  std::string placement;  // a policy (placement.h); excludes --cpus
  double duration_s = 5;
  bool json = false;
  std::vector<std::string> tool_flags;  // --tool NAME=PATH (external tools only)
  tools::ToolPaths tools;
};

std::string flag_name(std::string param) {
  std::replace(param.begin(), param.end(), '_', '-');
  return "--" + param;
}

// Numbers as JSON numbers, everything else as strings.
nlohmann::json json_value(const std::string& v) {
  char* end = nullptr;
  double d = std::strtod(v.c_str(), &end);
  if (!v.empty() && end && *end == '\0')
    return d == static_cast<long long>(d) ? nlohmann::json(static_cast<long long>(d))
                                          : nlohmann::json(d);
  return v;
}

void print_result(const workloads::WorkloadInfo& w, const workloads::WorkloadResult& r,
                  const std::vector<int>& cpus, const StressOptions& o) {
  if (o.json) {
    nlohmann::json j = {{"workload", w.name}, {"cpus", format_cpulist(cpus)}};
    for (const auto& [k, v] : r.effective_params) j[k] = json_value(v);
    for (const auto& m : r.metrics) j[m.name] = m.value;
    std::cout << j.dump(2) << "\n";
    return;
  }
  std::vector<std::string> params;
  for (const auto& [k, v] : r.effective_params) params.push_back(k + "=" + printable(v));
  std::cout << fmt::format("{} on cpus {} ({})\n", w.name, format_cpulist(cpus),
                           fmt::join(params, ", "));
  for (const auto& m : r.metrics)
    std::cout << fmt::format("  {:<30} {:>14} {}\n", m.name, format_number(m.value), m.unit);
}

// The policy the flags name: --placement P, --cpus L (cpulist:L), or all.
std::string policy_of(const StressOptions& o) {
  if (!o.placement.empty()) return o.placement;
  return o.cpus.empty() ? "all" : "cpulist:" + o.cpus;
}

void run_stress(const workloads::WorkloadInfo& w, const StressOptions& o, int& exit_code) {
  placement::Placement where;
  topology::Topology topo;
  workloads::Params params;
  try {
    topo = topology::load_topology({});
    where = placement::resolve_placement(policy_of(o), topo);
    params = workloads::with_defaults(w, o.params);
    w.validate(params, where.cpus.size());
    if (w.tool) workloads::check_tool_case(*w.tool, w, params, where.cpus);
  } catch (const std::exception& e) {
    throw CliError(ErrorKind::kUsage, e.what());
  }
  const std::vector<int>& cpus = where.cpus;
  if (w.tool) {
    try {
      workloads::probe_tool(*w.tool, o.tools, cpus);  // a missing tool is exit 3, not a run
    } catch (const tools::ToolArgsError& e) {
      throw CliError(ErrorKind::kUnreachable, e.what());
    }
  }
  workloads::RunContext ctx;
  ctx.cpus = cpus;
  ctx.duration = std::chrono::nanoseconds(static_cast<long long>(o.duration_s * 1e9));
  ctx.message_cpus = where.message_cpus;
  ctx.worker_cpus = where.worker_cpus;
  ctx.pu_to_llc = topology::pu_to_llc(topo);
  ctx.pu_to_node = topology::pu_to_node(topo);
  ctx.tools = &o.tools;
  // As the runner does: a workload that overruns its duration by the grace
  // (5 s, or half the duration) is stopped and fails.
  const auto grace = std::max<std::chrono::nanoseconds>(std::chrono::seconds(5), ctx.duration / 2);
  runner::Watchdog watchdog(install_stop_signals(), ctx.duration + grace);
  ctx.stop = &watchdog.flag();
  try {
    workloads::WorkloadResult r = w.run(params, ctx);
    if (watchdog.fired()) {
      throw workloads::WorkloadError(
          fmt::format("{}: overran its {} s by more than the {:.3g} s grace; stopped", w.name,
                      o.duration_s, std::chrono::duration<double>(grace).count()));
    }
    print_result(w, r, cpus, o);
  } catch (const workloads::WorkloadError& e) {
    throw CliError(ErrorKind::kFailed, e.what());
  }
  exit_code = kExitOk;
}

void add_workload_command(CLI::App& stress, const workloads::WorkloadInfo& w, int& exit_code) {
  auto* cmd = stress.add_subcommand(w.name, w.description);
  auto opts = std::make_shared<StressOptions>();
  for (const auto& spec : w.params) {
    std::string help = spec.help;
    if (spec.default_value && *spec.default_value) {
      help += fmt::format(" (default {})", spec.default_value);
    } else if (spec.default_value) {
      help += " (default: none)";
    } else {
      help += " (required)";
    }
    cmd->add_option_function<std::string>(
        flag_name(spec.name),
        [opts, name = std::string(spec.name)](const std::string& v) { opts->params[name] = v; },
        help);
  }
  CLI::Option* cpus =
      cmd->add_option("--cpus", opts->cpus,
                      "cpulist to run on, e.g. 0-3,8 (default: every allowed PU); the same as "
                      "--placement cpulist:LIST");
  CLI::Option* where =
      cmd->add_option("--placement", opts->placement,
                      "placement policy: all, cpulist:LIST, node:N, package:N, llc:N, "
                      "compact:K, spread:K or split:K, e.g. --placement spread:4 (see below)")
          ->type_name("POLICY");
  cpus->excludes(where);
  cmd->footer(placement::policy_help());
  cmd->add_option("--duration", opts->duration_s, "seconds to run")
      ->check(CLI::Validator(
          [](std::string& v) {
            char* end = nullptr;
            double d = std::strtod(v.c_str(), &end);
            bool ok = end && *end == '\0' && std::isfinite(d) && d >= 0.001 && d <= 86400;
            return ok ? std::string() : "'" + v + "' is not a number of seconds in [0.001, 86400]";
          },
          "SECONDS in [0.001, 86400]"))
      ->required();
  cmd->add_flag("--json", opts->json, "print one JSON object instead of text");
  if (w.tool) add_tool_options(*cmd, opts->tool_flags);
  cmd->callback([&w, opts, &exit_code] {
    apply_tool_flags(opts->tools, opts->tool_flags);
    run_stress(w, *opts, exit_code);
  });
}

}  // namespace

void add_stress_command(CLI::App& app, int& exit_code) {
  auto* stress =
      app.add_subcommand("stress", "run one workload on this machine and print its metrics");
  stress->require_subcommand(1);
  for (const auto& w : workloads::all_workloads()) add_workload_command(*stress, w, exit_code);
}

}  // namespace schedrig::agent
