// `schedrig-agent knobs list|get|set|restore`: the knobs at the console,
// with the same names plans use, journaled so `restore` (or the next agent
// start) puts the originals back.
#include <cstring>
#include <iostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "agent/cli/commands.h"
#include "agent/cli/state_options.h"
#include "agent/knobs/allowlist.h"
#include "agent/knobs/features.h"
#include "agent/session/agent_state.h"
#include "common/cli_error.h"
#include "common/printable.h"

namespace schedrig::agent {
namespace {

struct KnobsOptions {
  StateOptions state;
  std::string name;
  bool json = false;
};

// The state dir is checked as every agent command checks it (state_dir_of:
// owner, mode, and the journal's).
knobs::KnobController controller(const KnobsOptions& o) {
  return knobs::KnobController(procfs::Root::from_flag(o.state.root), state_dir_of(o.state));
}

// Runs `f`, mapping knob errors to exit codes: unavailable 3, bad input 2.
template <typename F>
void guarded(F f) {
  try {
    f();
  } catch (const knobs::KnobUnavailable& e) {
    throw CliError(ErrorKind::kUnreachable, printable(e.what()));
  } catch (const knobs::KnobError& e) {
    throw CliError(ErrorKind::kUsage, printable(e.what()));
  }
}

// `j` as JSON text; a knob file's bytes that are not UTF-8 become U+FFFD
// (nlohmann's error_handler_t::replace) rather than an exception.
std::string json_text(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string errno_text(int e) {
  return e ? fmt::format("{} ({})", std::strerror(e), strerrorname_np(e) ? strerrorname_np(e) : "?")
           : "";
}

nlohmann::json features_json(const procfs::Root& root) {
  knobs::FeaturesFile f(root);
  nlohmann::json j = {{"path", f.path()}};
  try {
    j["features"] = f.read();
  } catch (const knobs::KnobError& e) {
    j["error"] = e.what();
  }
  return j;
}

void list(const KnobsOptions& o) {
  auto k = controller(o);
  nlohmann::json out = {{"features", features_json(k.root())}, {"knobs", nlohmann::json::array()}};
  for (const auto& c : k.probe()) {
    if (c.knob.kind == knobs::KnobKind::kFeature) {  // the features file itself
      out["features"]["writable"] = c.writable;
      if (c.errno_value) out["features"]["write_error"] = errno_text(c.errno_value);
      continue;
    }
    nlohmann::json j = {{"name", c.knob.name},    {"kind", knobs::kind_name(c.knob.kind)},
                        {"path", c.path},         {"readable", c.readable},
                        {"writable", c.writable}, {"errno", c.errno_value}};
    if (c.readable) j["value"] = k.current({c.knob}).at(c.knob.name);
    if (c.errno_value) j["error"] = errno_text(c.errno_value);
    out["knobs"].push_back(j);
  }
  if (o.json) {
    std::cout << json_text(out, 2) << "\n";
    return;
  }
  const auto& f = out["features"];
  if (f.contains("error")) {
    std::cout << fmt::format("sched features: {}\n", printable(f["error"].get<std::string>()));
  } else {
    std::cout << fmt::format("sched features ({}):\n", printable(f["path"].get<std::string>()));
    for (const auto& [name, on] : f["features"].items())
      std::cout << fmt::format("  {}{}\n", on.get<bool>() ? "" : "NO_", printable(name));
  }
  std::cout << "\nsysctls and debugfs tunables (allowlist):\n";
  for (const auto& j : out["knobs"]) {
    std::string state =
        j["writable"].get<bool>() ? "writable" : j.value("error", std::string("read-only"));
    std::cout << fmt::format("  {:<46} {:>12}  {}\n", j["name"].get<std::string>(),
                             j.contains("value") ? printable(j["value"].get<std::string>()) : "-",
                             printable(state));
  }
}

void get(const KnobsOptions& o) {
  auto s = knobs::parse_knob(o.name, false);
  auto value = controller(o).current({s}).at(s.name);
  if (o.json) {
    std::cout << json_text({{"name", s.name}, {"kind", knobs::kind_name(s.kind)}, {"value", value}},
                           -1)
              << "\n";
  } else {
    std::cout << fmt::format("{}={}\n", s.name, printable(value));
  }
}

// A wait for the knob lock (a run holds it from its start to its end), on
// stderr as it starts, every 10 s and when it is taken.
void tell_lock_wait(const knobs::LockWait& w) {
  const double s = static_cast<double>(w.waited.count()) / 1e3;
  if (w.taken) {
    std::cerr << fmt::format("took the knob lock after {:.1f} s\n", s);
    return;
  }
  std::cerr << fmt::format(
      "waiting for the knob lock held by pid {} (a run or another schedrig process; lock {}, "
      "{:.0f} of {:.0f} s)\n",
      w.holder, w.path, s, static_cast<double>(w.limit.count()) / 1e3);
}

void set(const KnobsOptions& o) {
  auto s = knobs::parse_knob(o.name, true);
  auto k = controller(o);
  k.set_lock_wait_observer(tell_lock_wait);
  k.check({s});
  std::string before = k.current({s}).at(s.name);
  k.apply({s});
  k.keep_journal();
  std::cout << fmt::format(
      "{}: {} -> {} (journaled in {}; `schedrig-agent knobs restore` puts it back)\n", s.name,
      printable(before), s.value, k.journal_file());
}

void restore(const KnobsOptions& o) {
  auto k = controller(o);
  auto restored = k.recover();
  if (o.json) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& e : restored)
      j.push_back({{"name", e.original.name}, {"value", e.original.value}, {"path", e.path}});
    std::cout << json_text({{"restored", j}}, 2) << "\n";
    return;
  }
  if (restored.empty())
    std::cout << fmt::format(
        "nothing restored ({} absent, from an earlier boot, of another --root, or all its "
        "entries refused; see the log)\n",
        k.journal_file());
  for (const auto& e : restored)
    std::cout << fmt::format("restored {}={}\n", e.original.name, e.original.value);
}

void add_action(CLI::App& knobs_cmd, const char* name, const char* help, bool takes_name,
                void (*action)(const KnobsOptions&), int& exit_code) {
  auto o = std::make_shared<KnobsOptions>();
  auto* cmd = knobs_cmd.add_subcommand(name, help);
  if (takes_name)
    cmd->add_option("name", o->name,
                    "NO_NI_RANDOM | kernel.numa_balancing=0 | sched/migration_cost_ns=500000")
        ->required();
  add_state_options(*cmd, o->state);
  cmd->add_flag("--json", o->json, "print JSON");
  cmd->callback([o, action, &exit_code] {
    guarded([&] { action(*o); });
    exit_code = kExitOk;
  });
}

}  // namespace

void add_knobs_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "knobs",
      "scheduler knobs at the console, named as plans name them: sched features (NI_RANDOM on, "
      "NO_NI_RANDOM off), sysctls (kernel.numa_balancing=0) and debugfs tunables "
      "(sched/migration_cost_ns=500000). `set` journals the original, so `restore` (or the next "
      "agent start) puts it back. Exit 3 when the kernel file is missing or locked (EPERM)");
  cmd->require_subcommand(1);
  add_action(*cmd, "list",
             "every sched feature and allowlisted knob with its value and whether it is writable",
             false, list, exit_code);
  add_action(*cmd, "get", "print one knob's value", true, get, exit_code);
  add_action(*cmd, "set",
             "set one knob (journaled), e.g. `knobs set kernel.sched_autogroup_enabled=0`", true,
             set, exit_code);
  add_action(*cmd, "restore", "put back every knob a journal of this boot changed", false, restore,
             exit_code);
}

}  // namespace schedrig::agent
