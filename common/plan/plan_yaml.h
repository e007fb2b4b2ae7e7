// Plan files (docs/architecture.md "Plan files (YAML)"): YAML in, a validated
// schedrig::v1::Plan out. Shared by host (which sends it as StartRun) and
// agent (`run --plan F`).
#pragma once

#include <map>
#include <stdexcept>
#include <string>

#include "common/error.h"
#include "schedrig/v1/plan.pb.h"

namespace schedrig {

// The most rounds `iterations: {min, max, stop: verdict}` may ask for
// (common/stats/sequential.h kMaxPairs).
inline constexpr unsigned kMaxSequentialRounds = 200;

// A plan that cannot be used, with where and what as fields (the HTTP API
// returns them as {error, file, line, key, value}). what() is one line:
// "FILE:LINE: key 'K': value 'V': why", where ":LINE" is left out when the
// line is unknown (0), "key 'K': " when no key is at fault (a YAML syntax
// error, an unreadable file) and "value 'V': " when `value` is empty. The
// parser's own errors leave `value` empty (their `why` names it), so they read
// "FILE:LINE: key 'cases[1].params': must be a map of scalars".
class PlanError : public std::runtime_error {
 public:
  // `kind` is kUsage for a plan that is wrong, kUnreachable for one that is
  // right but needs a knob the agent cannot change (exit 3, like the agent's
  // own ERROR_FACILITY_UNAVAILABLE).
  PlanError(std::string file, int line, std::string key, std::string value, const std::string& why,
            ErrorKind kind = ErrorKind::kUsage);

  ErrorKind kind() const { return kind_; }

  const std::string& file() const { return file_; }    // the plan's source name
  int line() const { return line_; }                   // 1-based; 0 = unknown
  const std::string& key() const { return key_; }      // "cases[0].params.fork_max"; "" = none
  const std::string& value() const { return value_; }  // the offending value; "" = not given

 private:
  std::string file_;
  int line_ = 0;
  std::string key_;
  std::string value_;
  ErrorKind kind_ = ErrorKind::kUsage;
};

// The line each key of a plan file is on, by key path as errors name keys:
// "name", "cases[1]" (the list item), "cases[1].params.fork_max",
// "cases[0].placement", "variants[2].sysctl.kernel.sched_autogroup_enabled",
// "variants[1].debugfs.sched/migration_cost_ns", "variants[1].features[0]".
// Lines are 1-based, the line of the key itself (of the item for list items).
struct PlanLines {
  std::map<std::string, int> lines;

  // The line of `key`, else of its nearest enclosing key that has one
  // ("cases[0].params.workers" -> "cases[0].params" -> "cases[0]" ->
  // "cases"), else 0. So a parameter the plan leaves out is reported at its
  // case's params (or the case).
  int line_of(const std::string& key) const;
};

// Parses YAML text. `source` names it in errors (a path, or "<built-in>").
// Checks: unknown keys, duplicate keys, wrong types, impossible values
// (iterations 1..100000, duration_s > 0, warmup_s/cooldown_s >= 0,
// sample_hz in [0, 20] (0 = no sampling), quiet {max_runnable, hold_s, timeout_s},
// starvation {idle_after_pct, lookahead, wait_share_pct, idle_pct}, order
// interleaved|blocked|shuffled, unique case and variant names, at least one case). No variants
// means one: "baseline". Throws PlanError. When `lines` is given it is filled
// with the line of every key seen (see PlanLines), for later checks of the
// plan (host/plan_check) to name lines too.
schedrig::v1::Plan parse_plan_yaml(const std::string& text, const std::string& source,
                                   PlanLines* lines = nullptr);

// The quiet-box check a plan gets when it has no `quiet:` key (or leaves
// some of its keys out): max_runnable 1, hold_s 1, timeout_s 10.
schedrig::v1::QuietCheck default_quiet_check();

// Reads and parses a plan file (`lines` as parse_plan_yaml's). Throws
// PlanError (also when unreadable).
schedrig::v1::Plan load_plan_file(const std::string& path, PlanLines* lines = nullptr);

// Name of an order value as plans spell it ("interleaved").
std::string order_name(schedrig::v1::Order order);

}  // namespace schedrig
