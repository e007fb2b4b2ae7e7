// Checking a plan on the host against one agent as last seen, before any
// run is queued for it (docs/architecture.md "Plan files (YAML)"): the checks
// the agent makes when it prepares a plan (agent/runner/prepare), made with
// the agent's own libraries on the Hello and Topology it reported, so a bad
// plan is refused with its file, line, key and value instead of failing on
// the box later.
#pragma once

#include <string>

#include "common/plan/plan_yaml.h"
#include "schedrig/v1/hello.pb.h"
#include "schedrig/v1/plan.pb.h"
#include "schedrig/v1/topology.pb.h"

namespace schedrig::plan_check {

// Checks `plan` (parsed from `file`, `lines` its line map) for the agent
// `agent_id`, whose last Hello and Topology are `hello` and `topo`:
//  - cases: the workload is known, every parameter is known and valid for
//    the PUs the placement gives on `topo` (workers: auto counts them), and
//    the placement resolves on `topo` (node:3 on a 2-node box is refused);
//  - variants: every feature token, sysctl and debugfs tunable is well
//    formed, allowlisted (unknown names get "did you mean") and in range;
//    and each knob is in hello.knobs, readable and writable there. Hello
//    reports sched features as one capability, "sched_features" (the
//    features file): a feature needs that file writable; whether this kernel
//    has the feature is left to the agent, which reads its features file
//    when it prepares the plan.
// Throws PlanError at the first problem, in plan order (cases, then
// variants): file `file`, the key's line from `lines` (its nearest enclosing
// key's when the plan leaves the key out, e.g. a default parameter), the key
// ("cases[0].params.fork_max", "cases[1].placement", "cases[1].membind",
// "variants[1].features[0]", "variants[2].sysctl.kernel.sched_autogroup_enabled"),
// the plan's value, and a message ending with the agent:
// "plan.yaml:14: key 'cases[0].params.fork_max': value '0': fork: parameter
// 'fork_max' = '0': must be an integer in [1, 16000] (agent box1)", or for a
// knob that cannot be changed "... (agent box1: /sys/kernel/debug/sched/features: EACCES)".
// A `topo` without PUs (the agent never sent one) or malformed is a
// PlanError with no key ("plan.yaml: agent box1 has not reported its topology ...").
void check_plan_for_agent(const schedrig::v1::Plan& plan, const PlanLines& lines,
                          const std::string& file, const std::string& agent_id,
                          const schedrig::v1::Hello& hello, const schedrig::v1::Topology& topo);

}  // namespace schedrig::plan_check
