// Pooled latency percentiles of a comparison (docs/statistics.md "Pooled
// percentiles"): per case, variant and histogram, every kept iteration's
// latency histogram merged (analysis::PooledHistogram) and p50/p90/p99/
// p99.9 read off the merge — labelled "pooled" wherever shown. The same
// iterations a comparison counts: ok ones the --disturbed policy keeps.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "host/compare/compare_table.h"
#include "host/store/records.h"

namespace schedrig::compare {

// What to pool for one side: which runs, which variant, under what label.
struct PoolSpec {
  std::string label, variant;
  std::vector<const store::RunRecord*> runs;  // not empty; each outlives the call
};

// Per case (the order of `cases`) and histogram (first seen; at most 64
// names a case, more are left out), the pooled percentiles of each spec's
// kept iterations of that case. A histogram that
// no spec has is left out; a side without it has iterations 0 and NaN.
std::vector<PooledLatency> pool_latency(const std::vector<std::string>& cases,
                                        const std::vector<PoolSpec>& specs, DisturbedPolicy policy,
                                        const std::string& variant = "");

// The pooled rows of `table` from the runs it was built of: within one run
// (against empty) the baseline variant then each column; across runs, per
// variant the rows compare, the reference side then RUN's. Runs loaded
// without histograms give none.
std::vector<PooledLatency> pooled_latency(const Table& table,
                                          const std::vector<store::RunRecord>& runs,
                                          const std::vector<store::RunRecord>& against);

}  // namespace schedrig::compare
