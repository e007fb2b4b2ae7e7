// The default plan of `schedrig lab`, built in from plans/default.yaml.
#pragma once

namespace schedrig::lab {

// The YAML text of plans/default.yaml at build time.
const char* default_plan_yaml();

}  // namespace schedrig::lab
