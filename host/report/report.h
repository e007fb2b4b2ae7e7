// Everything schedrig_report offers, for the CLI: `results --json`, the runs
// table, one run in detail, and CSV.
#pragma once

#include "host/report/format.h"
#include "host/report/results_csv.h"
#include "host/report/results_json.h"
#include "host/report/runs_text.h"
