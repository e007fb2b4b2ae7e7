// `schedrig import F`: load an offline envelope file (`schedrig-agent run
// --out F`) into the store exactly as if it had streamed: each envelope is
// ingested on its own (a repeat is ignored), so a truncated file still
// keeps every whole envelope before the damage.
#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "common/cli_error.h"
#include "common/envelope_codec.h"
#include "common/offline_file.h"
#include "host/cli/commands.h"
#include "host/store/default_db_path.h"
#include "host/store/store.h"
#include "host/store/store_error.h"

namespace schedrig::host {
namespace {

struct ImportOptions {
  std::string file;
  std::string db;
};

struct ImportCounts {
  std::size_t stored = 0;
  std::size_t duplicates = 0;
};

// A store that failed while importing (busy, a refused statement): said as
// a store failure of the StoreError's own kind (exit 1), not a bad record.
CliError store_failure(const store::StoreError& e, const std::string& file, std::size_t index,
                       const ImportCounts& n) {
  return CliError(e.kind(), fmt::format("{} (importing {} at record {}; {} envelopes stored "
                                        "before it)",
                                        e.what(), file, index, n.stored));
}

// A record that cannot be read, decoded or stored as given: bad input (exit 2).
CliError bad_record(const std::string& why, const std::string& file, std::size_t index,
                    const ImportCounts& n) {
  return CliError(
      ErrorKind::kUsage,
      fmt::format("{}: record {}: {} ({} envelopes stored before it)", file, index, why, n.stored));
}

// Ingests every record; throws CliError naming the file and record number
// at the first bad one (what came before stays stored).
ImportCounts import_records(std::istream& in, const std::string& file, store::Store& store) {
  ImportCounts n;
  std::size_t index = 0;
  try {
    read_offline_header(in);
    for (;;) {
      ++index;  // counts from 1, so a failed read names the record it is in
      auto bytes = read_offline_record(in);
      if (!bytes) break;
      DecodeResult r = decode_envelope(*bytes);
      if (!r.envelope) throw std::runtime_error(r.error);
      if (store.ingest(*r.envelope, *bytes) == store::Store::Ingest::kStored) {
        ++n.stored;
      } else {
        ++n.duplicates;
      }
    }
  } catch (const store::StoreError& e) {
    // An envelope without its ids is a bad record; anything else is the store.
    if (e.reason() != store::StoreError::Reason::kBadContent)
      throw store_failure(e, file, index, n);
    throw bad_record(e.what(), file, index, n);
  } catch (const std::runtime_error& e) {
    throw bad_record(e.what(), file, index, n);
  }
  return n;
}

void run_import(const ImportOptions& o) {
  std::ifstream in(o.file, std::ios::binary);
  if (!in) throw CliError(ErrorKind::kUsage, fmt::format("cannot open {}", o.file));
  std::unique_ptr<store::Store> store;
  try {
    store = std::make_unique<store::Store>(o.db.empty() ? store::default_db_path() : o.db);
  } catch (const store::StoreError& e) {
    throw CliError(e.kind(), e.what());
  }
  ImportCounts n = import_records(in, o.file, *store);
  std::cout << fmt::format("imported {}: {} envelopes stored, {} already there; into {}\n", o.file,
                           n.stored, n.duplicates, store->path());
}

}  // namespace

void add_import_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<ImportOptions>();
  auto* cmd = app.add_subcommand("import",
                                 "load a `schedrig-agent run --out F` file into the store as if it "
                                 "had streamed; repeats are ignored");
  cmd->add_option("file", o->file, "offline envelope file")->required();
  cmd->add_option("--db", o->db, "SQLite file (default: the lab's schedrig.db)");
  cmd->callback([o, &exit_code] {
    run_import(*o);
    exit_code = kExitOk;
  });
}

}  // namespace schedrig::host
