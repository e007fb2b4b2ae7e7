// serve's own metrics (docs/architecture.md "Metrics"): GET /metrics on
// serve's port, behind an operator token, in the Prometheus text format
// (0.0.4) written by prometheus-cpp's core TextSerializer — not its
// civetweb exposer, which would open a second, unauthenticated port.
//
// Series:
//   schedrig_agents_connected                 gauge: agents with a live session
//   schedrig_runs{state}                      gauge: queue rows by state
//   schedrig_envelopes_stored_total           counter: envelopes stored the first time
//   schedrig_ingest_latency_seconds           histogram: submit to commit, per envelope
//   schedrig_agent_spool_backlog_envelopes{agent}
//                                             gauge: unacked envelopes the agent's spool
//                                             held when it last connected
//   schedrig_nightly_verdict{agent,plan,case,variant,metric,kernel}
//                                             gauge: -1 (R), 0 none, 1 (I), 2 not judged
//   schedrig_nightly_change_percent{...}      gauge: the change against the baseline
//   schedrig_nightly_detector_failed_nights   gauge: nights whose selftest missed
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "host/collector/events.h"
#include "host/store/records.h"

namespace prometheus {
class Registry;
class Counter;
class Histogram;
template <typename T>
class Family;
class Gauge;
}  // namespace prometheus

namespace schedrig::metrics {

// What a scrape reads from the rest of serve at that moment.
struct ScrapeState {
  std::size_t agents_connected = 0;
  std::map<std::string, std::size_t> runs_by_state;  // "queued" -> 3, ...
  std::vector<store::NightlyVerdictRecord> nightly;
  unsigned detector_failed_nights = 0;
};

// Thread-safe: sessions, the store writer and the API call it at once.
class ServerMetrics : public collector::CollectorEvents {
 public:
  ServerMetrics();
  ~ServerMetrics() override;
  ServerMetrics(const ServerMetrics&) = delete;
  ServerMetrics& operator=(const ServerMetrics&) = delete;

  // An accepted Hello: the spool backlog its connection reported (a
  // connection without one drops the agent's series).
  void on_hello(const std::shared_ptr<collector::AgentChannel>& channel,
                const schedrig::v1::Envelope& env) override;
  // One envelope stored for the first time, `latency` after it was queued
  // for the store (StoreWriterOptions::on_committed).
  void envelope_committed(std::chrono::nanoseconds latency);

  // The whole exposition: these series and `now`'s.
  std::string scrape(const ScrapeState& now) const;

 private:
  std::shared_ptr<prometheus::Registry> registry_;
  prometheus::Counter* stored_;
  prometheus::Histogram* ingest_latency_;
  prometheus::Family<prometheus::Gauge>* spool_backlog_;
};

// The content type of scrape()'s text.
inline constexpr const char* kMetricsContentType = "text/plain; version=0.0.4; charset=utf-8";

}  // namespace schedrig::metrics
