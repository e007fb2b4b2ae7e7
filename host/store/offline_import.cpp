#include "host/store/offline_import.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "common/envelope_codec.h"
#include "common/offline_file.h"

namespace schedrig::store {
namespace {

namespace v1 = schedrig::v1;

// The runs the file starts and finishes, as far as it was read.
struct RunsSeen {
  std::vector<std::string> started;  // file order
  std::set<std::string> finished;

  void note(const v1::Envelope& env) {
    if (env.has_run_started()) {
      const std::string& id = env.run_started().run_id();
      if (std::find(started.begin(), started.end(), id) == started.end()) started.push_back(id);
    } else if (env.has_run_finished()) {
      finished.insert(env.run_finished().run_id());
    }
  }
};

// Ingests one record's envelope; throws OfflineFileError when it cannot be
// decoded or the store refuses its content.
void ingest_record(const OfflineReader& reader, const std::string& bytes, Store& store,
                   ImportReport& report, RunsSeen& runs) {
  DecodeResult r = decode_envelope(bytes);
  if (!r.envelope) {
    throw OfflineFileError(reader.index(), reader.offset(), "undecodable: " + r.error);
  }
  try {
    if (store.ingest(*r.envelope, bytes) == Store::Ingest::kStored) {
      ++report.stored;
    } else {
      ++report.duplicates;
    }
  } catch (const StoreError& e) {
    if (e.reason() != StoreError::Reason::kBadContent) throw;
    throw OfflineFileError(reader.index(), reader.offset(), e.what());
  }
  runs.note(*r.envelope);
}

// Reads and ingests records until the end or the first bad one.
void import_records(OfflineReader& reader, const std::string& file, Store& store,
                    ImportReport& report, RunsSeen& runs) {
  try {
    while (auto bytes = reader.next()) ingest_record(reader, *bytes, store, report, runs);
  } catch (const OfflineFileError& e) {
    report.bad_record = e.what();
  } catch (const StoreError& e) {
    throw Error(
        e.kind(),
        fmt::format("{} (importing {} at record {}, byte {}; {} envelopes stored before it)",
                    e.what(), file, reader.index(), reader.offset(), report.stored));
  }
}

std::string incomplete_reason(const std::string& file, const ImportReport& report) {
  if (report.bad_record.empty()) return fmt::format("no RunFinished: {} ends before it", file);
  return fmt::format("no RunFinished: {} is damaged at {}", file, report.bad_record);
}

}  // namespace

ImportReport import_offline(std::istream& in, const std::string& file, Store& store) {
  OfflineReader reader(in);
  ImportReport report;
  report.version = reader.version();
  RunsSeen runs;
  import_records(reader, file, store, report, runs);
  const std::string reason = incomplete_reason(file, report);
  for (const std::string& run_id : runs.started) {
    if (runs.finished.count(run_id)) continue;
    if (store.mark_run_incomplete(run_id, reason) == "incomplete") {
      report.incomplete_runs.push_back(run_id);
    }
  }
  return report;
}

}  // namespace schedrig::store
