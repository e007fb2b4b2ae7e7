#include "host/store/sample_queries.h"

#include <fmt/format.h>

#include "schedrig/v1/sample.pb.h"

namespace schedrig::store {

std::vector<std::pair<std::string, double>> sample_values(const v1::Sample& s) {
  std::vector<std::pair<std::string, double>> v;
  v.reserve(15 + static_cast<std::size_t>(s.busy_per_node_size()));
  v.emplace_back("idle_pct", s.idle_pct());
  for (const v1::NodeBusy& n : s.busy_per_node()) {
    v.emplace_back(fmt::format("busy_pct_node{}", n.node()), n.busy_pct());
  }
  v.emplace_back("ctxt_per_s", s.ctxt_per_s());
  v.emplace_back("intr_per_s", s.intr_per_s());
  v.emplace_back("forks_per_s", s.forks_per_s());
  v.emplace_back("runnable", s.runnable());
  v.emplace_back("blocked", s.blocked());
  if (s.has_wait_share_pct()) v.emplace_back("wait_share_pct", s.wait_share_pct());
  if (s.has_newidle_lb_per_s()) v.emplace_back("newidle_lb_per_s", s.newidle_lb_per_s());
  if (s.has_newidle_failed_pct()) v.emplace_back("newidle_failed_pct", s.newidle_failed_pct());
  if (s.has_run_delay_ms_per_s()) v.emplace_back("run_delay_ms_per_s", s.run_delay_ms_per_s());
  if (s.has_psi_some_pct()) v.emplace_back("psi_some_pct", s.psi_some_pct());
  if (s.has_numa_pages_migrated_per_s()) {
    v.emplace_back("numa_pages_migrated_per_s", s.numa_pages_migrated_per_s());
  }
  if (s.has_numa_miss_per_s()) v.emplace_back("numa_miss_per_s", s.numa_miss_per_s());
  v.emplace_back("load1", s.load1());
  return v;
}

std::vector<SampleRecord> load_samples(sqlite::Db& db, const std::string& run_id,
                                       long long after_id, bool exact) {
  // A prefix as a range, so the (run_id, id) index serves it too: every
  // string that starts with `run_id` sorts at or after it and before
  // run_id + 0xFF (no UTF-8 text holds the byte 0xFF).
  sqlite::Statement st(db, exact ? R"sql(
      SELECT id, run_id, case_name, variant, iteration, position, t_ns, body FROM samples
      WHERE run_id = ?1 AND id > ?3 ORDER BY id)sql"
                                 : R"sql(
      SELECT id, run_id, case_name, variant, iteration, position, t_ns, body FROM samples
      WHERE run_id >= ?1 AND run_id < ?2 AND id > ?3 ORDER BY id)sql");
  st.bind_text(1, run_id).bind_int(3, after_id);
  if (!exact) st.bind_text(2, run_id + '\xff');
  std::vector<SampleRecord> out;
  while (st.step()) {
    SampleRecord r;
    r.id = st.column_int(0);
    r.run_id = st.column_text(1);
    r.case_name = st.column_text(2);
    r.variant = st.column_text(3);
    r.iteration = static_cast<unsigned>(st.column_int(4));
    r.position = static_cast<unsigned>(st.column_int(5));
    r.t_ns = st.column_int(6);
    v1::Sample s;
    if (!s.ParseFromString(st.column_blob(7))) {
      throw StoreError(StoreError::Reason::kBadContent,
                       fmt::format("store {}: sample {} of run {} does not decode as "
                                   "schedrig.v1.Sample",
                                   db.path(), r.id, r.run_id));
    }
    r.interval_s = s.interval_s();
    r.ops_so_far = s.ops_so_far();
    r.values = sample_values(s);
    r.starved = s.starved();
    r.starved_reason = s.starved_reason();
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace schedrig::store
