// `schedrig import F`: load an offline envelope file (`schedrig-agent run
// --out F`) into the store exactly as if it had streamed
// (host/store/offline_import.h). Exit 0 when every record was read and every
// run in it finished; 1 when the import stopped at a bad record (what came
// before it is stored) or a run has no RunFinished (stored `incomplete`);
// 2 when F is not an offline file.
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "common/cli_error.h"
#include "common/offline_file.h"
#include "host/cli/commands.h"
#include "host/store/default_db_path.h"
#include "host/store/offline_import.h"
#include "host/store/store.h"
#include "host/store/store_error.h"

namespace schedrig::host {
namespace {

struct ImportOptions {
  std::string file;
  std::string db;
};

std::unique_ptr<store::Store> open_store(const std::string& db) {
  try {
    return std::make_unique<store::Store>(db.empty() ? store::default_db_path() : db);
  } catch (const store::StoreError& e) {
    throw CliError(e.kind(), e.what());
  }
}

store::ImportReport import_file(std::istream& in, const std::string& file, store::Store& store) {
  try {
    return store::import_offline(in, file, store);
  } catch (const OfflineFileError& e) {
    throw CliError(ErrorKind::kUsage,
                   fmt::format("{}: not a schedrig offline file: {}", file, e.what()));
  }
}

// Why the import is a failure (exit 1); "" when it is not.
std::string failure_of(const std::string& file, const store::ImportReport& r) {
  std::string why;
  if (!r.bad_record.empty()) {
    why = fmt::format("{}: {}: import stopped there ({} envelopes stored before it)", file,
                      r.bad_record, r.stored);
  }
  for (const std::string& run_id : r.incomplete_runs) {
    if (!why.empty()) why += "; ";
    why += fmt::format("run {} is incomplete: {} holds no RunFinished for it", run_id, file);
  }
  return why;
}

void run_import(const ImportOptions& o) {
  std::ifstream in(o.file, std::ios::binary);
  if (!in) throw CliError(ErrorKind::kUsage, fmt::format("cannot open {}", o.file));
  std::unique_ptr<store::Store> store = open_store(o.db);
  const store::ImportReport r = import_file(in, o.file, *store);
  if (r.version == kOfflineVarintVersion) {
    std::cerr << fmt::format(
        "note: {} is a version 1 offline file: its records carry no checksums, so damage "
        "inside a record cannot be detected\n",
        o.file);
  }
  std::cout << fmt::format("imported {}: {} envelopes stored, {} already there; into {}\n", o.file,
                           r.stored, r.duplicates, store->path());
  if (std::string why = failure_of(o.file, r); !why.empty()) {
    throw CliError(ErrorKind::kFailed, why);
  }
}

}  // namespace

void add_import_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<ImportOptions>();
  auto* cmd = app.add_subcommand(
      "import",
      "load a `schedrig-agent run --out F` file into the store as if it had streamed; repeats "
      "are ignored. Exit 1 when the file is damaged (everything before the bad record is "
      "stored; the record, its byte offset and why are named) or a run in it has no "
      "RunFinished (stored as 'incomplete'); 2 when F is not a schedrig offline file");
  cmd->add_option("file", o->file, "offline envelope file")->required();
  cmd->add_option("--db", o->db, "SQLite file (default: the lab's schedrig.db)");
  cmd->callback([o, &exit_code] {
    run_import(*o);
    exit_code = kExitOk;
  });
}

}  // namespace schedrig::host
