// `schedrig report --nightly DIR`: reads a night's OUT directory
// (summary.json, night.json) and, with --server or --db, the night's runs,
// and renders report::html::nightly_report_html.
#pragma once

#include <string>

#include "host/cli/compare_inputs.h"

namespace schedrig::host {

// The page. Throws CliError(kUsage) naming the file when DIR has no night
// (summary.json or night.json missing, too big or not a night's).
std::string nightly_report_html(const std::string& dir, const ComparisonCliOptions& o,
                                const std::string& command);

}  // namespace schedrig::host
