#include "host/compare/comparable.h"

#include <fmt/format.h>

#include <set>

#include "host/compare/run_data.h"

namespace schedrig::compare {
namespace {

// The plan's definition of `case_name`; an empty object when it has none.
nlohmann::json case_definition(const store::RunRecord& run, const std::string& case_name) {
  if (run.plan.is_object() && run.plan.contains("cases") && run.plan["cases"].is_array()) {
    for (const auto& c : run.plan["cases"]) {
      if (c.is_object() && c.value("name", "") == case_name) return c;
    }
  }
  return nlohmann::json::object();
}

// A string field of a definition; "-" when it has none.
std::string text_of(const nlohmann::json& def, const char* key) {
  const auto it = def.find(key);
  return it != def.end() && it->is_string() ? it->get<std::string>() : "-";
}

void differ(std::vector<std::string>& out, const std::string& what, const std::string& a,
            const std::string& b) {
  if (a != b) out.push_back(fmt::format("{}: {} -> {}", what, a, b));
}

void param_differences(std::vector<std::string>& out, const nlohmann::json& a,
                       const nlohmann::json& b) {
  const nlohmann::json empty = nlohmann::json::object();
  const nlohmann::json& pa = a.contains("params") && a["params"].is_object() ? a["params"] : empty;
  const nlohmann::json& pb = b.contains("params") && b["params"].is_object() ? b["params"] : empty;
  std::set<std::string> keys;
  for (const auto& [k, v] : pa.items()) keys.insert(k);
  for (const auto& [k, v] : pb.items()) keys.insert(k);
  for (const auto& k : keys)
    differ(out, "params." + k, text_of(pa, k.c_str()), text_of(pb, k.c_str()));
}

// The distinct cpulists the iterations of `case_name` ran on, " | "-joined;
// "" when none is known.
std::string cpulists(const store::RunRecord& run, const std::string& case_name) {
  std::vector<std::string> lists;
  for (const auto& it : run.iterations) {
    if (it.case_name == case_name && !it.cpus.empty()) push_unique(lists, it.cpus);
  }
  return fmt::format("{}", fmt::join(lists, " | "));
}

// The plan's measured time, warm-up and cool-down (every case's): a 0.5 s
// iteration is not a 2 s one (a fork storm's rate climbs for a second).
void timing_differences(std::vector<std::string>& out, const nlohmann::json& a,
                        const nlohmann::json& b) {
  for (const char* key : {"duration_s", "warmup_s", "cooldown_s"}) {
    const auto number = [key](const nlohmann::json& plan) {
      const auto it = plan.is_object() ? plan.find(key) : plan.end();
      return it != plan.end() && it->is_number() ? fmt::format("{:g}", it->get<double>())
                                                 : std::string("-");
    };
    differ(out, key, number(a), number(b));
  }
}

bool ran(const store::RunRecord& run, const std::string& case_name) {
  for (const auto& it : run.iterations) {
    if (it.case_name == case_name) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> case_differences(const store::RunRecord& reference,
                                          const store::RunRecord& run,
                                          const std::string& case_name) {
  const nlohmann::json a = case_definition(reference, case_name);
  const nlohmann::json b = case_definition(run, case_name);
  std::vector<std::string> out;
  differ(out, "workload", text_of(a, "workload"), text_of(b, "workload"));
  param_differences(out, a, b);
  differ(out, "placement", text_of(a, "placement"), text_of(b, "placement"));
  differ(out, "membind", text_of(a, "membind"), text_of(b, "membind"));
  timing_differences(out, reference.plan, run.plan);
  const std::string ca = cpulists(reference, case_name), cb = cpulists(run, case_name);
  if (!ca.empty() && !cb.empty()) differ(out, "cpulist", ca, cb);
  if (reference.pus != 0 && run.pus != 0) {
    differ(out, "PUs", std::to_string(reference.pus), std::to_string(run.pus));
  }
  return out;
}

std::vector<FingerprintDifference> topology_differences(const store::RunRecord& reference,
                                                        const store::RunRecord& run) {
  std::vector<FingerprintDifference> out;
  if (reference.pus != run.pus) {
    out.push_back({"pus", reference.pus ? std::to_string(reference.pus) : "",
                   run.pus ? std::to_string(run.pus) : ""});
  }
  for (const auto& name : plan_names(reference.plan, "cases")) {
    if (!ran(reference, name) || !ran(run, name)) continue;
    std::string a = cpulists(reference, name), b = cpulists(run, name);
    if (a != b) out.push_back({fmt::format("cpus[{}]", name), std::move(a), std::move(b)});
  }
  return out;
}

}  // namespace schedrig::compare
