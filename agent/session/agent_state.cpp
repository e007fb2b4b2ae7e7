#include "agent/session/agent_state.h"

#include "agent/sampler/sampler.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "agent/knobs/journal.h"
#include "agent/spool/dir_trust.h"

#include "common/cli_error.h"
#include "common/state_dir.h"

namespace schedrig::agent {

// The state dir holds the knob journal, the spool and current-run, all
// believed by a root agent: refuse one another user may write (dir_trust.h),
// and a journal that is not this user's or root's, or that others may write.
void check_state_dir(const std::string& dir) {
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0)
    throw CliError(ErrorKind::kUsage,
                   fmt::format("state dir {}: cannot stat it: {}", dir, std::strerror(errno)));
  if (const auto why = spool::untrusted_dir(st))
    throw CliError(ErrorKind::kUsage, fmt::format("state dir {}: {}", dir, *why));
  if (const auto why = knobs::journal_trust_problem(knobs::journal_path(dir)))
    throw CliError(ErrorKind::kUsage, *why);
}

std::string state_dir_of(const StateOptions& o) {
  const std::string dir = o.state_dir.empty() ? default_state_dir() : o.state_dir;
  if (!o.state_dir.empty()) create_state_dir(dir);
  check_state_dir(dir);
  return dir;
}

std::unique_ptr<knobs::KnobController> open_knobs(const StateOptions& o) {
  auto k =
      std::make_unique<knobs::KnobController>(procfs::Root::from_flag(o.root), state_dir_of(o));
  try {
    auto restored = k->recover();
    if (!restored.empty()) {
      spdlog::warn("restored {} knob(s) left changed by an earlier agent of this boot",
                   restored.size());
    }
  } catch (const knobs::KnobError& e) {
    throw CliError(ErrorKind::kUnreachable, e.what());
  }
  return k;
}

void add_knob_capabilities(const knobs::KnobController& k, schedrig::v1::Hello& hello) {
  for (const auto& c : k.probe()) {
    auto* cap = hello.add_knobs();
    cap->set_name(c.knob.kind == knobs::KnobKind::kFeature ? "sched_features" : c.knob.name);
    cap->set_path(c.path);
    cap->set_readable(c.readable);
    cap->set_writable(c.writable);
    cap->set_errno_value(c.errno_value);
    for (const auto& name : c.features) cap->add_features(name);
    if (c.value) cap->set_value(*c.value);
    cap->set_features_left_out(static_cast<std::uint32_t>(c.features_left_out));
  }
}

runner::RunOptions run_options(const knobs::KnobController& k, const tools::ToolPaths& tools,
                               std::optional<RunLockOptions> run_lock) {
  runner::RunOptions o;
  o.root = k.root();
  o.tools = tools;
  o.run_lock = std::move(run_lock);
  return o;
}

void add_source_capabilities(const knobs::KnobController& k, schedrig::v1::Hello& hello) {
  for (const auto& s : sampler::probe_sources(k.root())) {
    if (!s.present) spdlog::warn("sampler: {} skipped: {}", s.path, s.reason);
    auto* cap = hello.add_sources();
    cap->set_path(s.path);
    cap->set_present(s.present);
    cap->set_version(s.version);
    cap->set_reason(s.reason);
  }
}

}  // namespace schedrig::agent
