// The body of POST /api/v1/runs (docs/architecture.md "HTTP API"), parsed
// and bounded, and the plan it carries parsed for checking.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/labels.h"
#include "common/plan/plan_yaml.h"
#include "schedrig/v1/plan.pb.h"

namespace schedrig::control {

inline constexpr std::size_t kMaxAgentsPerSubmit = 1024;
inline constexpr std::size_t kMaxPlanNameBytes = 256;

// What to queue: one run of `plan` per target agent.
struct Submission {
  std::vector<std::string> agents;  // agent ids; empty when `all`
  bool all = false;                 // every agent connected now
  schedrig::v1::Plan plan;
  PlanLines lines;        // where each key of the plan is (empty for a plan not from YAML)
  std::string plan_name;  // the plan's file name, as errors name it
  std::map<std::string, std::string> labels;  // win over the plan's own labels
  std::string run_id;  // with one target: its run id (lab); "" = a fresh UUID per run
  // check_only:true: the plan is checked against each target as a submit
  // would, and nothing is queued (`schedrig nightly` before its first boot).
  bool check_only = false;
};

// {agents:[ID...] | all:true, plan_yaml, plan_name ("plan.yaml" when
// missing), labels:{K:V}, check_only:BOOL} -> a Submission with the plan parsed. Throws
// ApiError 400: not JSON, a wrong type, neither or both of agents and all,
// more than kMaxAgentsPerSubmit agents or kMaxLabels labels, an invalid agent
// id, an over-long name or label, or a plan that does not parse (then the
// body is plan_error_json).
Submission parse_runs_request(const std::string& body);

// {error, file, line, key, value} of a plan error.
nlohmann::json plan_error_json(const PlanError& e);

// The plan's labels with `labels` over them.
std::map<std::string, std::string> merged_labels(const schedrig::v1::Plan& plan,
                                                 const std::map<std::string, std::string>& labels);

}  // namespace schedrig::control
