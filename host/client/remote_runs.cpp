#include "host/client/remote_runs.h"

#include <fmt/format.h>

#include "common/error.h"
#include "common/printable.h"
#include "host/client/api_paths.h"
#include "host/client/api_views.h"
#include "host/client/run_record_json.h"

namespace schedrig::client {

store::RunRecord fetch_run(ApiClient& client, const std::string& run, bool histograms) {
  const std::string path = histograms ? run_path(run) + "?histograms=1" : run_path(run);
  std::vector<store::RunRecord> runs = runs_from_results_json(client.get_json(path));
  if (runs.size() != 1) {
    throw Error(ErrorKind::kFailed,
                fmt::format("server {} answered {} runs for '{}', not one", client.url().origin(),
                            runs.size(), printable(run)));
  }
  return std::move(runs.front());
}

std::string newest_run_id(ApiClient& client) {
  const std::vector<report::QueueEntry> rows = queue_from_json(client.get_json(runs_path()));
  if (rows.empty()) {
    throw Error(ErrorKind::kUsage, fmt::format("server {} has no runs yet", client.url().origin()));
  }
  return rows.back().run_id;
}

}  // namespace schedrig::client
