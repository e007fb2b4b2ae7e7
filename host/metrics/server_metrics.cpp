#include "host/metrics/server_metrics.h"

#include <cmath>
#include <sstream>

#include <prometheus/counter.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>

#include "host/collector/agent_channel.h"

namespace schedrig::metrics {
namespace {

// 100 us .. ~6.5 s, doubling: a commit of a batch on a busy disk fits.
prometheus::Histogram::BucketBoundaries latency_buckets() {
  prometheus::Histogram::BucketBoundaries out;
  for (double b = 1e-4; b < 10; b *= 2) out.push_back(b);
  return out;
}

// The gauges of `now`, in a registry of their own (made per scrape, so a
// state or agent that went away leaves no stale series).
void add_scrape_gauges(prometheus::Registry& r, const ScrapeState& now) {
  prometheus::BuildGauge()
      .Name("schedrig_agents_connected")
      .Help("Agents with a live session")
      .Register(r)
      .Add({})
      .Set(static_cast<double>(now.agents_connected));
  auto& runs = prometheus::BuildGauge()
                   .Name("schedrig_runs")
                   .Help("Runs in serve's queue by state")
                   .Register(r);
  for (const auto& [state, count] : now.runs_by_state) {
    runs.Add({{"state", state}}).Set(static_cast<double>(count));
  }
  auto& verdict = prometheus::BuildGauge()
                      .Name("schedrig_nightly_verdict")
                      .Help(
                          "Latest nightly verdict of a kernel against the baseline: -1 "
                          "regression (R), 0 no significant change, 1 improvement (I), 2 not "
                          "judged")
                      .Register(r);
  auto& change = prometheus::BuildGauge()
                     .Name("schedrig_nightly_change_percent")
                     .Help("Latest nightly change of a kernel against the baseline, percent")
                     .Register(r);
  for (const auto& v : now.nightly) {
    const prometheus::Labels labels{{"agent", v.agent_id}, {"plan", v.plan},
                                    {"case", v.case_name}, {"variant", v.variant},
                                    {"metric", v.metric},  {"kernel", v.kernel}};
    verdict.Add(labels).Set(v.verdict);
    if (std::isfinite(v.change_pct)) change.Add(labels).Set(v.change_pct);
  }
  prometheus::BuildGauge()
      .Name("schedrig_nightly_detector_failed_nights")
      .Help("Nights reported to serve whose selftest missed its injected regression")
      .Register(r)
      .Add({})
      .Set(now.detector_failed_nights);
}

}  // namespace

ServerMetrics::ServerMetrics() : registry_(std::make_shared<prometheus::Registry>()) {
  stored_ = &prometheus::BuildCounter()
                 .Name("schedrig_envelopes_stored_total")
                 .Help("Agent envelopes stored for the first time")
                 .Register(*registry_)
                 .Add({});
  ingest_latency_ = &prometheus::BuildHistogram()
                         .Name("schedrig_ingest_latency_seconds")
                         .Help("From an envelope's arrival at the store writer to its commit")
                         .Register(*registry_)
                         .Add({}, latency_buckets());
  spool_backlog_ = &prometheus::BuildGauge()
                        .Name("schedrig_agent_spool_backlog_envelopes")
                        .Help(
                            "Unacknowledged envelopes in the agent's spool when it last "
                            "connected (what its replay sends)")
                        .Register(*registry_);
}

ServerMetrics::~ServerMetrics() = default;

void ServerMetrics::on_hello(const std::shared_ptr<collector::AgentChannel>& channel,
                             const schedrig::v1::Envelope& env) {
  (void)env;
  const prometheus::Labels labels{{"agent", channel->agent_id()}};
  const auto backlog = channel->spool_backlog();
  if (backlog) {
    spool_backlog_->Add(labels).Set(static_cast<double>(*backlog));
  } else if (spool_backlog_->Has(labels)) {
    spool_backlog_->Remove(&spool_backlog_->Add(labels));  // unknown now: no stale value
  }
}

void ServerMetrics::envelope_committed(std::chrono::nanoseconds latency) {
  stored_->Increment();
  ingest_latency_->Observe(std::chrono::duration<double>(latency).count());
}

std::string ServerMetrics::scrape(const ScrapeState& now) const {
  prometheus::Registry per_scrape;
  add_scrape_gauges(per_scrape, now);
  std::vector<prometheus::MetricFamily> families = registry_->Collect();
  for (auto& f : per_scrape.Collect()) families.push_back(std::move(f));
  std::ostringstream out;
  prometheus::TextSerializer().Serialize(out, families);
  return out.str();
}

}  // namespace schedrig::metrics
