#include "host/store/queries.h"

#include <limits>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>
#include <google/protobuf/arena.h>

#include "common/plan/plan_json.h"
#include "host/store/sample_queries.h"
#include "schedrig/v1/plan.pb.h"
#include "schedrig/v1/result.pb.h"

namespace schedrig::store {

std::map<std::string, std::string> string_map(const sqlite::Db& db, const std::string& text,
                                              const std::string& what) {
  std::map<std::string, std::string> out;
  try {
    nlohmann::json j = nlohmann::json::parse(text);
    for (const auto& [k, v] : j.items()) out[k] = v.is_string() ? v.get<std::string>() : v.dump();
  } catch (const nlohmann::json::exception& e) {
    throw StoreError(
        StoreError::Reason::kBadContent,
        fmt::format("store {}: {} is not a JSON object: {}", db.path(), what, e.what()));
  }
  return out;
}

v1::Plan decode_plan(const sqlite::Db& db, const std::string& bytes, const std::string& run_id) {
  v1::Plan plan;
  if (!plan.ParseFromString(bytes)) {
    throw StoreError(StoreError::Reason::kBadContent,
                     fmt::format("store {}: plan of run {} does not decode as schedrig.v1.Plan",
                                 db.path(), run_id));
  }
  return plan;
}

nlohmann::json plan_json(const sqlite::Db& db, const std::string& bytes,
                         const std::string& run_id) {
  return plan_to_json(decode_plan(db, bytes, run_id));
}

namespace {

// The run's fingerprint as name -> value (RunRecord::fingerprint); empty
// when the bytes do not decode.
std::map<std::string, std::string> fingerprint_map(const std::string& bytes) {
  std::map<std::string, std::string> out;
  v1::Fingerprint fp;
  if (!fp.ParseFromString(bytes)) return out;
  for (const auto& [k, v] : fp.fields()) out[k] = v;
  if (!fp.kernel_release().empty()) out["kernel_release"] = fp.kernel_release();
  if (!fp.kernel_cmdline().empty()) out["kernel_cmdline"] = fp.kernel_cmdline();
  if (!fp.sched_features().empty()) out["sched_features"] = fp.sched_features();
  return out;
}

// Decodes stored SampleSummary blobs into records. The messages live on an
// arena whose first block is reused for every blob, so a run of 100k
// iterations does not pay a malloc and free per stat (Store::runs stays fast).
class SummaryDecoder {
 public:
  SummaryDecoder() : block_(kBlockBytes), arena_(block_.data(), block_.size()) {}

  // The record of `bytes`; empty when they do not decode.
  SampleSummaryRecord decode(const std::string& bytes) {
    SampleSummaryRecord out;
    auto* summary = google::protobuf::Arena::CreateMessage<v1::SampleSummary>(&arena_);
    if (summary->ParseFromString(bytes)) {
      out.samples = summary->samples();
      out.starved_intervals = summary->starved_intervals();
      out.stats.reserve(static_cast<std::size_t>(summary->stats_size()));
      for (v1::SampleStat& stat : *summary->mutable_stats()) {
        out.stats.push_back({std::move(*stat.mutable_name()), std::move(*stat.mutable_unit()),
                             stat.mean(), stat.p95()});
      }
    }
    arena_.Reset();
    return out;
  }

 private:
  static constexpr std::size_t kBlockBytes = 16384;
  std::vector<char> block_;
  google::protobuf::Arena arena_;
};

// The histograms of the iterations in `out` (index_of: iteration id ->
// place in `out`), in the agent's order. A blob that does not decode is
// left out (the rest of the run is still worth showing).
void load_histograms(sqlite::Db& db, const std::string& run_id, long long after_id,
                     const std::unordered_map<long long, std::size_t>& index_of,
                     std::vector<IterationRecord>& out) {
  sqlite::Statement st(db, R"sql(
      SELECT iteration_id, body FROM histograms
      WHERE iteration_id IN (SELECT id FROM iterations WHERE run_id = ?1 AND id > ?2)
      ORDER BY iteration_id, ordinal)sql");
  st.bind_text(1, run_id).bind_int(2, after_id);
  v1::Histogram h;
  while (st.step()) {
    auto found = index_of.find(st.column_int(0));
    if (found == index_of.end() || !h.ParseFromString(st.column_blob(1))) continue;
    if (h.lower_bounds_size() != h.counts_size()) continue;
    HistogramRecord r{h.name(),
                      h.unit(),
                      {h.lower_bounds().begin(), h.lower_bounds().end()},
                      {h.counts().begin(), h.counts().end()}};
    out[found->second].histograms.push_back(std::move(r));
  }
}

// Iterations of `run_id` with id > `after_id`, in position order, with
// their metrics: one query for the rows, one for all their metrics.
std::vector<IterationRecord> load_iterations(sqlite::Db& db, const std::string& run_id,
                                             long long after_id, RunsOptions options) {
  std::vector<IterationRecord> out;
  // Without summaries the blob is not even read.
  sqlite::Statement st(db, fmt::format(R"sql(
      SELECT id, case_name, variant, iteration, position, status, reason, knobs, cpus,
             started_at_ns, finished_at_ns, {}, quiet_wait_s, quiet_gave_up, disturbed,
             disturbed_reason, attempts
      FROM iterations WHERE run_id = ?1 AND id > ?2 ORDER BY position, id)sql",
                                       options.sample_summaries ? "sample_summary" : "NULL"));
  st.bind_text(1, run_id).bind_int(2, after_id);
  std::unordered_map<long long, std::size_t> index_of;
  // Iterations of one variant share their knobs text: parse each text once.
  std::unordered_map<std::string, std::map<std::string, std::string>> knobs_of;
  SummaryDecoder summaries;
  while (st.step()) {
    IterationRecord it;
    it.id = st.column_int(0);
    it.case_name = st.column_text(1);
    it.variant = st.column_text(2);
    it.iteration = static_cast<unsigned>(st.column_int(3));
    it.position = static_cast<unsigned>(st.column_int(4));
    it.status = st.column_text(5);
    it.reason = st.column_text(6);
    std::string knobs = st.column_text(7);
    auto known = knobs_of.find(knobs);
    if (known == knobs_of.end()) {
      auto parsed = string_map(db, knobs, "knobs of run " + run_id);
      known = knobs_of.emplace(std::move(knobs), std::move(parsed)).first;
    }
    it.knobs = known->second;
    it.cpus = st.column_text(8);
    it.started_at_ns = st.column_int(9);
    it.finished_at_ns = st.column_int(10);
    if (!st.is_null(11)) it.sample_summary = summaries.decode(st.column_blob(11));
    it.quiet_wait_s = st.column_double(12);
    it.quiet_gave_up = st.column_int(13) != 0;
    it.disturbed = st.column_int(14) != 0;
    it.disturbed_reason = st.column_text(15);
    it.attempts = static_cast<unsigned>(st.column_int(16));
    index_of[it.id] = out.size();
    out.push_back(std::move(it));
  }

  sqlite::Statement metrics(db, R"sql(
      SELECT iteration_id, name, value, unit, direction FROM metrics
      WHERE iteration_id IN (SELECT id FROM iterations WHERE run_id = ?1 AND id > ?2)
      ORDER BY iteration_id, ordinal)sql");
  metrics.bind_text(1, run_id).bind_int(2, after_id);
  while (metrics.step()) {
    auto found = index_of.find(metrics.column_int(0));
    if (found == index_of.end()) continue;
    MetricRecord m;
    m.name = metrics.column_text(1);
    m.value =
        metrics.is_null(2) ? std::numeric_limits<double>::quiet_NaN() : metrics.column_double(2);
    m.unit = metrics.column_text(3);
    m.direction = metrics.column_text(4);
    out[found->second].metrics.push_back(std::move(m));
  }
  if (options.histograms) load_histograms(db, run_id, after_id, index_of, out);
  return out;
}

}  // namespace

std::vector<RunRecord> load_runs(sqlite::Db& db, const std::string& prefix, RunsOptions options) {
  // substr() rather than LIKE: run ids are matched exactly and case-sensitively.
  sqlite::Statement st(db, R"sql(
      SELECT r.run_id, r.agent_id, r.instance_id, i.hostname, i.kernel_release,
             coalesce(nullif(i.pus, 0), i.allowed_pus, 0), r.labels, r.plan, r.status, r.reason,
             r.planned_iterations, r.started_at_ns, r.finished_at_ns, r.fingerprint,
             r.dropped_samples, i.boot_id
      FROM runs r LEFT JOIN instances i ON i.instance_id = r.instance_id
      WHERE substr(r.run_id, 1, length(?1)) = ?1
      ORDER BY r.started_at_ns, r.rowid)sql");
  st.bind_text(1, prefix);
  std::vector<RunRecord> runs;
  while (st.step()) {
    RunRecord run;
    run.run_id = st.column_text(0);
    run.agent_id = st.column_text(1);
    run.instance_id = st.column_text(2);
    run.hostname = st.column_text(3);
    run.kernel_release = st.column_text(4);
    run.fingerprint = fingerprint_map(st.column_blob(13));
    if (run.kernel_release.empty()) {
      auto kernel = run.fingerprint.find("kernel_release");
      if (kernel != run.fingerprint.end()) run.kernel_release = kernel->second;
    }
    run.pus = static_cast<unsigned>(st.column_int(5));
    run.labels = string_map(db, st.column_text(6), "labels of run " + run.run_id);
    run.plan = plan_json(db, st.column_blob(7), run.run_id);
    run.status = st.column_text(8);
    run.reason = st.column_text(9);
    run.planned_iterations = static_cast<unsigned>(st.column_int(10));
    run.started_at_ns = st.column_int(11);
    run.finished_at_ns = st.column_int(12);
    run.dropped_samples = static_cast<unsigned long long>(st.column_int(14));
    run.boot_id = st.column_text(15);
    runs.push_back(std::move(run));
  }
  for (RunRecord& run : runs) run.iterations = load_iterations(db, run.run_id, 0, options);
  return runs;
}

std::vector<std::string> load_run_ids(sqlite::Db& db, const std::string& prefix) {
  sqlite::Statement st(db, R"sql(
      SELECT run_id FROM runs WHERE substr(run_id, 1, length(?1)) = ?1
      ORDER BY started_at_ns, rowid)sql");
  st.bind_text(1, prefix);
  std::vector<std::string> out;
  while (st.step()) out.push_back(st.column_text(0));
  return out;
}

RunProgress load_progress(sqlite::Db& db, const std::string& run_id, long long after_sample_id,
                          long long after_iteration_id) {
  RunProgress out;
  sqlite::Statement st(db, "SELECT status, planned_iterations FROM runs WHERE run_id = ?1");
  st.bind_text(1, run_id);
  if (st.step()) {
    out.status = st.column_text(0);
    out.planned_iterations = static_cast<unsigned>(st.column_int(1));
  }
  out.iterations = load_iterations(db, run_id, after_iteration_id, RunsOptions{});
  out.samples = load_samples(db, run_id, after_sample_id, /*exact=*/true);
  return out;
}

}  // namespace schedrig::store
