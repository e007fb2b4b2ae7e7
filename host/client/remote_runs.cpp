#include "host/client/remote_runs.h"

#include <fmt/format.h>

#include "common/error.h"
#include "common/printable.h"
#include "host/client/api_paths.h"
#include "host/client/run_record_json.h"

namespace schedrig::client {

store::RunRecord fetch_run(ApiClient& client, const std::string& run) {
  std::vector<store::RunRecord> runs = runs_from_results_json(client.get_json(run_path(run)));
  if (runs.size() != 1) {
    throw Error(ErrorKind::kFailed,
                fmt::format("server {} answered {} runs for '{}', not one", client.url().origin(),
                            runs.size(), printable(run)));
  }
  return std::move(runs.front());
}

}  // namespace schedrig::client
