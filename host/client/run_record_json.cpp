#include "host/client/run_record_json.h"

#include "common/latency_buckets.h"
#include "host/client/json_read.h"

namespace schedrig::client {
namespace {

using nlohmann::json;

store::MetricRecord metric_from_json(const json& j) {
  return {j.at("name").get<std::string>(), number_or_nan(j.at("value")),
          j.at("unit").get<std::string>(), j.at("direction").get<std::string>()};
}

store::SampleSummaryRecord summary_from_json(const json& j) {
  store::SampleSummaryRecord s;
  s.samples = j.at("count").get<unsigned>();
  s.starved_intervals = j.at("starved_intervals").get<unsigned>();
  for (const auto& st : j.at("stats")) {
    s.stats.push_back({st.at("name").get<std::string>(), st.at("unit").get<std::string>(),
                       number_or_nan(st.at("mean")), number_or_nan(st.at("p95"))});
  }
  return s;
}

// A histogram of a server's answer, checked: as many counts as bounds, at
// most kMaxHistogramBuckets of them.
store::HistogramRecord histogram_from_json(const json& j) {
  store::HistogramRecord h;
  h.name = j.at("name").get<std::string>();
  h.unit = j.at("unit").get<std::string>();
  h.lower_bounds = j.at("lower_bounds").get<std::vector<double>>();
  for (const json& c : j.at("counts")) {
    if (!c.is_number_unsigned()) {
      throw json::other_error::create(501,
                                      "histogram '" + h.name +
                                          "' has a count that is not "
                                          "a whole number >= 0",
                                      &j);
    }
  }
  h.counts = j.at("counts").get<std::vector<unsigned long long>>();
  if (h.lower_bounds.size() != h.counts.size() ||
      h.lower_bounds.size() > latency_buckets::kBuckets) {
    throw json::other_error::create(501, "histogram '" + h.name + "' has mismatched buckets", &j);
  }
  return h;
}

store::IterationRecord iteration_of(const json& j) {
  store::IterationRecord it;
  it.case_name = j.at("case").get<std::string>();
  it.variant = j.at("variant").get<std::string>();
  it.iteration = j.at("iteration").get<unsigned>();
  it.status = j.at("status").get<std::string>();
  it.reason = j.at("reason").get<std::string>();
  it.cpus = j.at("cpus").get<std::string>();
  it.started_at_ns = j.at("started_at_ns").get<long long>();
  it.finished_at_ns = j.at("finished_at_ns").get<long long>();
  for (const auto& m : j.at("metrics")) it.metrics.push_back(metric_from_json(m));
  it.knobs = string_map(j.at("knobs"));
  it.sample_summary = summary_from_json(j.at("samples"));
  it.quiet_wait_s = number_or_nan(j.at("quiet_wait_s"));
  it.quiet_gave_up = j.at("quiet_gave_up").get<bool>();
  if (j.contains("position")) it.position = j.at("position").get<unsigned>();
  // Servers before schema 5 send none of these.
  it.disturbed = j.value("disturbed", false);
  it.disturbed_reason = j.value("disturbed_reason", std::string());
  it.attempts = j.value("attempts", 1u);
  if (j.contains("histograms")) {
    for (const auto& h : j.at("histograms")) it.histograms.push_back(histogram_from_json(h));
  }
  return it;
}

store::RunRecord run_of(const json& j) {
  store::RunRecord run;
  run.run_id = j.at("run_id").get<std::string>();
  run.agent_id = j.at("agent_id").get<std::string>();
  run.hostname = j.at("hostname").get<std::string>();
  run.kernel_release = j.at("kernel_release").get<std::string>();
  run.boot_id = j.value("boot_id", std::string());  // servers before schema 5 send none
  run.pus = j.at("pus").get<unsigned>();
  run.labels = string_map(j.at("labels"));
  run.plan = j.at("plan");
  run.status = j.at("status").get<std::string>();
  run.reason = j.at("reason").get<std::string>();
  run.started_at_ns = j.at("started_at_ns").get<long long>();
  run.finished_at_ns = j.at("finished_at_ns").get<long long>();
  run.dropped_samples = j.value("dropped_samples", 0ull);  // only when > 0
  for (const auto& it : j.at("iterations")) {
    run.iterations.push_back(iteration_of(it));
    if (!it.contains("position")) {
      run.iterations.back().position = static_cast<unsigned>(run.iterations.size() - 1);
    }
  }
  if (j.contains("fingerprint")) run.fingerprint = string_map(j.at("fingerprint"));
  run.planned_iterations = planned_iterations(run.plan);
  return run;
}

// A number of an optional key, else `fallback`.
template <class T>
T optional_number(const json& j, const char* key, T fallback) {
  const auto it = j.find(key);
  return it == j.end() || it->is_null() ? fallback : it->get<T>();
}

}  // namespace

std::vector<store::RunRecord> runs_from_results_json(const json& j) {
  return reading("results", [&] {
    std::vector<store::RunRecord> runs;
    for (const auto& run : j.at("runs")) runs.push_back(run_of(run));
    return runs;
  });
}

store::IterationRecord iteration_from_json(const json& j) {
  return reading("iteration", [&] { return iteration_of(j); });
}

store::SampleRecord sample_from_json(const json& j, const std::string& run_id) {
  return reading("sample", [&] {
    store::SampleRecord s;
    s.run_id = run_id;
    s.position = j.at("position").get<unsigned>();
    s.case_name = j.at("case").get<std::string>();
    s.variant = j.at("variant").get<std::string>();
    s.iteration = j.at("iteration").get<unsigned>();
    s.t_ns = j.at("t_ns").get<long long>();
    for (const auto& [name, value] : j.at("values").items()) {
      s.values.emplace_back(name, number_or_nan(value));
    }
    s.interval_s = optional_number(j, "interval_s", 0.0);
    s.ops_so_far = optional_number(j, "ops_so_far", 0ULL);
    s.starved = optional_number(j, "starved", false);
    s.starved_reason = j.value("starved_reason", "");
    return s;
  });
}

unsigned planned_iterations(const json& plan) {
  if (!plan.is_object()) return 0;
  const auto size_of = [&](const char* key, std::size_t fallback) {
    const auto it = plan.find(key);
    return it != plan.end() && it->is_array() ? it->size() : fallback;
  };
  // A number, or {min, max, stop: verdict} (common/plan/plan_json.h): max.
  const json* iterations = plan.contains("iterations") ? &plan.at("iterations") : nullptr;
  if (iterations && iterations->is_object())
    iterations = iterations->contains("max") ? &iterations->at("max") : nullptr;
  const std::size_t per_slot =
      iterations && iterations->is_number_unsigned() ? iterations->get<std::size_t>() : 0;
  return static_cast<unsigned>(size_of("cases", 0) * size_of("variants", 1) * per_slot);
}

}  // namespace schedrig::client
