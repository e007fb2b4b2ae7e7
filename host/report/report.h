// Everything schedrig_report offers, for the CLI: `results --json`, the runs
// table, one run in detail, CSV, the agents table, samples and their summary.
#pragma once

#include "host/report/agents_report.h"
#include "host/report/format.h"
#include "host/report/results_csv.h"
#include "host/report/results_json.h"
#include "host/report/runs_text.h"
#include "host/report/sample_summary_text.h"
#include "host/report/samples_report.h"
