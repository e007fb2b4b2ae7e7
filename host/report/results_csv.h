// Results as CSV, one row per metric, for spreadsheets and `schedrig analyze`.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "host/store/records.h"

namespace schedrig::report {

// Header "run_id,case,variant,iteration,status,metric,value,unit,direction",
// then one row per metric of every iteration (runs, iterations and metrics in
// the order given); an iteration without metrics still gets one row, with the
// metric fields empty. Values use the shortest text that reads back exactly
// (NaN is an empty field). Fields are quoted per RFC 4180 when they hold a
// comma, a double quote, CR or LF (quotes doubled). Lines end in '\n'.
void print_results_csv(const std::vector<store::RunRecord>& runs, std::ostream& out);

// One CSV field, quoted per RFC 4180 only when it needs to be.
std::string csv_field(const std::string& text);

// `fields` as one CSV line (csv_field each, comma-separated), ending in '\n'.
void print_csv_row(const std::vector<std::string>& fields, std::ostream& out);

}  // namespace schedrig::report
