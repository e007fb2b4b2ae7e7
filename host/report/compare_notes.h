// The notes under a comparison table (docs/statistics.md "Notes a row can
// carry"): per case and variant (across runs, case, variant and run), each
// remark once. A remark that several metrics of that case and variant share
// ("fewer than 2 iterations ...", "1 boot per side: ...") is said once
// without a metric; one that belongs to a metric (a bimodal or drifting
// series in words, a cliff, a threshold remark) names it. The remarks the
// table already shows (the "*", the flags, the CoV column) are left out.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "host/compare/compare_table.h"

namespace schedrig::report {

// The notes of the rows `shown` keeps, then the unmatched lines; not escaped.
// "fork-all / ni-random / ops_per_s: bimodal: 6 of 10 iterations at ~38.1k ...",
// "fork-all / ni-random: fewer than 2 iterations (n=1 vs 2)".
std::vector<std::string> compare_notes(const compare::Table& table,
                                       const std::function<bool(const compare::Row&)>& shown);

// `note`'s "; "-separated parts without those the table already shows.
std::vector<std::string> unshown_remarks(const std::string& note);

}  // namespace schedrig::report
