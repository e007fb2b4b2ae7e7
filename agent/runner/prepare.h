// Checking a plan against this agent before any iteration runs: every
// workload known, every parameter valid, every placement resolvable.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "agent/knobs/knob_controller.h"
#include "agent/placement/placement.h"
#include "agent/tools/tool_paths.h"
#include "agent/topology/topology.h"
#include "agent/workloads/registry.h"
#include "schedrig/v1/control.pb.h"
#include "schedrig/v1/plan.pb.h"

namespace schedrig::runner {

// The plan cannot run on this agent. what() names the case or variant and
// the reason ("case 'fork-all': fork: parameter 'fork_max' = '0': ...").
// code() is ERROR_BAD_PLAN for bad input (exit 2) or
// ERROR_FACILITY_UNAVAILABLE when a knob cannot be changed here (exit 3).
// key() and value() name the plan entry at fault when known
// ("variants[1].features[0]", "NO_NI_RANDOM"), so a caller holding the
// plan's lines can give its file and line.
class PlanRejected : public std::runtime_error {
 public:
  explicit PlanRejected(const std::string& message,
                        schedrig::v1::ErrorCode code = schedrig::v1::ERROR_BAD_PLAN,
                        std::string key = "", std::string value = "")
      : std::runtime_error(message), code_(code), key_(std::move(key)), value_(std::move(value)) {}
  schedrig::v1::ErrorCode code() const { return code_; }
  const std::string& key() const { return key_; }      // "" = not known
  const std::string& value() const { return value_; }  // as the plan wrote it

 private:
  schedrig::v1::ErrorCode code_;
  std::string key_;
  std::string value_;
};

// A case ready to run: its workload, full parameters, and PUs.
struct PreparedCase {
  std::string name;
  const workloads::WorkloadInfo* workload = nullptr;
  workloads::Params params;  // defaults filled in
  std::vector<int> cpus;     // resolved placement: placement.cpus
  // The resolved placement, with split:K's message and worker PUs.
  placement::Placement placement;
};

// Validates every case of `plan` on `topo`, and its length (at most
// kMaxScheduleSlots slots); index i of the result is plan.cases(i). A case
// of an external tool (workloads/tool_case.h) also needs its binary from
// `tools`: trusted, and listing the options schedrig needs
// (workloads::probe_tool), else the plan is refused with
// ERROR_FACILITY_UNAVAILABLE. Throws PlanRejected.
std::vector<PreparedCase> prepare_cases(const schedrig::v1::Plan& plan,
                                        const topology::Topology& topo,
                                        const tools::ToolPaths& tools = tools::ToolPaths());

// Checks every variant's knobs: names and values valid, each knob present
// and writable through `knobs`. Nothing is written. Throws PlanRejected
// (ERROR_FACILITY_UNAVAILABLE naming knob, path and errno when a knob
// cannot be changed here).
void check_variants(const schedrig::v1::Plan& plan, const knobs::KnobController& knobs);

}  // namespace schedrig::runner
