// Plan files (docs/architecture.md "Plan files (YAML)"): YAML in, a validated
// schedrig::v1::Plan out. Shared by host (which sends it as StartRun) and
// agent (`run --plan F`).
#pragma once

#include <stdexcept>
#include <string>

#include "schedrig/v1/plan.pb.h"

namespace schedrig {

// A plan that cannot be used. what() is one line:
// "FILE:LINE: key 'cases[1].params': must be a map of scalars".
class PlanError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Parses YAML text. `source` names it in errors (a path, or "<built-in>").
// Checks: unknown keys, duplicate keys, wrong types, impossible values
// (iterations 1..100000, duration_s > 0, warmup_s/cooldown_s >= 0,
// sample_hz in [0, 20] (0 = no sampling), quiet {max_runnable, hold_s, timeout_s},
// starvation {idle_after_pct, lookahead, wait_share_pct, idle_pct}, order
// interleaved|blocked|shuffled, unique case and variant names, at least one case). No variants
// means one: "baseline". Throws PlanError.
schedrig::v1::Plan parse_plan_yaml(const std::string& text, const std::string& source);

// The quiet-box check a plan gets when it has no `quiet:` key (or leaves
// some of its keys out): max_runnable 1, hold_s 1, timeout_s 10.
schedrig::v1::QuietCheck default_quiet_check();

// Reads and parses a plan file. Throws PlanError (also when unreadable).
schedrig::v1::Plan load_plan_file(const std::string& path);

// Name of an order value as plans spell it ("interleaved").
std::string order_name(schedrig::v1::Order order);

}  // namespace schedrig
