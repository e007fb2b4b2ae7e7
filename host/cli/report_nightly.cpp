#include "host/cli/report_nightly.h"

#include <fmt/format.h>

#include "common/cli_error.h"
#include "common/printable.h"
#include "host/cli/read_store.h"
#include "host/client/remote_runs.h"
#include "host/nightly/night_files.h"
#include "host/nightly/night_report.h"
#include "host/store/store.h"

namespace schedrig::host {
namespace {

constexpr std::size_t kMaxSummaryBytes = std::size_t{16} << 20;

// What `read` returns; its CliError(kUsage) says DIR is not a finished night.
template <class Read>
auto of_a_night(const std::string& dir, Read&& read) {
  try {
    return read();
  } catch (const CliError& e) {
    if (e.kind() != ErrorKind::kUsage) throw;
    throw CliError(ErrorKind::kUsage,
                   printable(fmt::format("report: {} is not a finished night's OUT ({}); "
                                         "schedrig nightly --out DIR writes summary.json and "
                                         "night.json there when the night ends",
                                         dir, e.what())));
  }
}

nlohmann::json read_summary(const std::string& dir) {
  const std::string path = dir + "/summary.json";
  nlohmann::json j = nlohmann::json::parse(
      of_a_night(dir, [&] { return nightly::read_bounded_file(path, kMaxSummaryBytes); }), nullptr,
      false);
  if (!j.is_object() || !j.contains("night") || !j.contains("rows")) {
    throw CliError(ErrorKind::kUsage,
                   fmt::format("report: {}: not a night's summary (schedrig nightly writes it "
                               "when the night ends)",
                               printable(path)));
  }
  return j;
}

}  // namespace

std::string nightly_report_html(const std::string& dir, const ComparisonCliOptions& o,
                                const std::string& command) {
  nlohmann::json summary = read_summary(dir);
  const auto night =
      of_a_night(dir, [&] { return nightly::NightState::load(dir + "/night.json"); });
  nightly::RunFetch fetch;
  std::unique_ptr<client::ApiClient> api;
  if (use_server(o.server, o.db)) {
    api = make_api_client(o.server);
    fetch = [&api](const std::string& id) { return client::fetch_run(*api, id); };
  } else if (!o.db.empty()) {
    fetch = [&o](const std::string& id) {
      return read_store(o.db, [&](const store::Store& s) {
        auto runs = s.runs(id, {.sample_summaries = false, .histograms = false});
        if (runs.empty()) throw CliError(ErrorKind::kUsage, "no run " + id + " in " + o.db);
        return std::move(runs.front());
      });
    };
  }
  report::html::NightReportData data =
      nightly::night_report_data(*night, std::move(summary), fetch, command);
  data.disturbed = *compare::parse_disturbed(o.disturbed);  // CLI11 checked the word
  return report::html::nightly_report_html(data);
}

}  // namespace schedrig::host
