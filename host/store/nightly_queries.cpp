#include "host/store/nightly_queries.h"

#include <cmath>

#include "host/store/sqlite.h"

namespace schedrig::store {

void save_night(sqlite::Db& db, const NightRecord& night) {
  sqlite::Statement put(db, R"sql(
      INSERT OR REPLACE INTO nights (night, received_at_ns, regression, detector_failed,
                                     submitted_by)
      VALUES (?1, ?2, ?3, ?4, ?5))sql");
  put.bind_text(1, night.night)
      .bind_int(2, night.received_at_ns)
      .bind_int(3, night.regression ? 1 : 0)
      .bind_int(4, night.detector_failed ? 1 : 0)
      .bind_text(5, night.submitted_by)
      .run();
  sqlite::Statement clear(db, "DELETE FROM nightly_verdicts WHERE agent_id = ?1 AND plan = ?2");
  for (const NightlyVerdictRecord& r : night.rows) {
    clear.reset();
    clear.bind_text(1, r.agent_id).bind_text(2, r.plan).run();
  }
  sqlite::Statement row(db, R"sql(
      INSERT OR REPLACE INTO nightly_verdicts
        (agent_id, plan, case_name, variant, metric, kernel, night, verdict, change_pct)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9))sql");
  for (const NightlyVerdictRecord& r : night.rows) {
    row.reset();
    row.bind_text(1, r.agent_id)
        .bind_text(2, r.plan)
        .bind_text(3, r.case_name)
        .bind_text(4, r.variant)
        .bind_text(5, r.metric)
        .bind_text(6, r.kernel)
        .bind_text(7, night.night)
        .bind_int(8, r.verdict);
    if (std::isfinite(r.change_pct)) {
      row.bind_double(9, r.change_pct);
    } else {
      row.bind_null(9);
    }
    row.run();
  }
}

std::vector<NightlyVerdictRecord> load_nightly_verdicts(sqlite::Db& db) {
  sqlite::Statement st(db, R"sql(
      SELECT agent_id, plan, case_name, variant, metric, kernel, night, verdict, change_pct
      FROM nightly_verdicts
      ORDER BY agent_id, plan, case_name, variant, metric, kernel)sql");
  std::vector<NightlyVerdictRecord> out;
  while (st.step()) {
    NightlyVerdictRecord r;
    r.agent_id = st.column_text(0);
    r.plan = st.column_text(1);
    r.case_name = st.column_text(2);
    r.variant = st.column_text(3);
    r.metric = st.column_text(4);
    r.kernel = st.column_text(5);
    r.night = st.column_text(6);
    r.verdict = static_cast<int>(st.column_int(7));
    r.change_pct = st.is_null(8) ? std::nan("") : st.column_double(8);
    out.push_back(std::move(r));
  }
  return out;
}

unsigned count_detector_failed_nights(sqlite::Db& db) {
  sqlite::Statement st(db, "SELECT COUNT(*) FROM nights WHERE detector_failed = 1");
  return st.step() ? static_cast<unsigned>(st.column_int(0)) : 0;
}

}  // namespace schedrig::store
