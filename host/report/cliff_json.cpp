#include "host/report/cliff_json.h"

#include "host/analysis/cliff.h"
#include "host/report/compare_json.h"

namespace schedrig::report {

nlohmann::json cliff_json(const analysis::Comparison& c) {
  const analysis::Cliff& k = c.cliff;
  return {{"tested", k.tested},
          {"decidable", k.decidable},
          {"below", k.below},
          {"above", k.above},
          {"p_below", json_number(k.p_below)},
          {"p_above", json_number(k.p_above)},
          {"significant_below", k.significant_below},
          {"significant_above", k.significant_above},
          {"level", json_number(k.level)},
          {"level_change_pct", json_number(k.level_change_pct)},
          {"words", analysis::describe_cliff(c)}};
}

}  // namespace schedrig::report
