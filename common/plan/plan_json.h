// A plan as JSON, in the units and key names of the YAML plan format
// (seconds as `duration_s`, order as a word), for `results --json`.
#pragma once

#include <nlohmann/json.hpp>

#include "schedrig/v1/plan.pb.h"

namespace schedrig {

nlohmann::json plan_to_json(const schedrig::v1::Plan& plan);

}  // namespace schedrig
