#include "host/report/results_json.h"

namespace schedrig::report {
namespace {

nlohmann::json metric_json(const store::MetricRecord& m) {
  return {{"name", m.name}, {"value", m.value}, {"unit", m.unit}, {"direction", m.direction}};
}

nlohmann::json summary_json(const store::SampleSummaryRecord& summary) {
  nlohmann::json stats = nlohmann::json::array();
  for (const auto& st : summary.stats) {
    stats.push_back({{"name", st.name}, {"unit", st.unit}, {"mean", st.mean}, {"p95", st.p95}});
  }
  return {{"count", summary.samples},
          {"starved_intervals", summary.starved_intervals},
          {"stats", std::move(stats)}};
}

nlohmann::json histogram_json(const store::HistogramRecord& h) {
  return {
      {"name", h.name}, {"unit", h.unit}, {"lower_bounds", h.lower_bounds}, {"counts", h.counts}};
}

}  // namespace

nlohmann::json iteration_json(const store::IterationRecord& it) {
  nlohmann::json metrics = nlohmann::json::array();
  for (const auto& m : it.metrics) metrics.push_back(metric_json(m));
  nlohmann::json out{{"case", it.case_name},
                     {"variant", it.variant},
                     {"iteration", it.iteration},
                     {"status", it.status},
                     {"reason", it.reason},
                     {"cpus", it.cpus},
                     {"started_at_ns", it.started_at_ns},
                     {"finished_at_ns", it.finished_at_ns},
                     {"metrics", std::move(metrics)},
                     {"knobs", nlohmann::json(it.knobs)},
                     {"samples", summary_json(it.sample_summary)},
                     {"quiet_wait_s", it.quiet_wait_s},
                     {"quiet_gave_up", it.quiet_gave_up},
                     {"disturbed", it.disturbed},
                     {"disturbed_reason", it.disturbed_reason},
                     {"attempts", it.attempts}};
  if (!it.histograms.empty()) {
    nlohmann::json histograms = nlohmann::json::array();
    for (const auto& h : it.histograms) histograms.push_back(histogram_json(h));
    out["histograms"] = std::move(histograms);
  }
  return out;
}

namespace {

nlohmann::json run_json(const store::RunRecord& run) {
  nlohmann::json iterations = nlohmann::json::array();
  for (const auto& it : run.iterations) iterations.push_back(iteration_json(it));
  nlohmann::json out{{"run_id", run.run_id},
                     {"agent_id", run.agent_id},
                     {"hostname", run.hostname},
                     {"kernel_release", run.kernel_release},
                     {"boot_id", run.boot_id},
                     {"pus", run.pus},
                     {"labels", nlohmann::json(run.labels)},
                     {"plan", run.plan.is_null() ? nlohmann::json::object() : run.plan},
                     {"status", run.status},
                     {"reason", run.reason},
                     {"started_at_ns", run.started_at_ns},
                     {"finished_at_ns", run.finished_at_ns},
                     {"fingerprint", nlohmann::json(run.fingerprint)},
                     {"iterations", std::move(iterations)}};
  if (run.dropped_samples > 0) out["dropped_samples"] = run.dropped_samples;
  return out;
}

}  // namespace

nlohmann::json results_json(const std::vector<store::RunRecord>& runs) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& run : runs) out.push_back(run_json(run));
  return {{"runs", std::move(out)}};
}

}  // namespace schedrig::report
