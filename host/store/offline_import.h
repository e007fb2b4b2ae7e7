// Loading an offline envelope file (`schedrig import F`, docs/architecture.md
// "Wire protocol", offline files) into the store as if it had streamed: each
// envelope is ingested on its own (a repeat is ignored), in file order, up to
// the first bad record; what came before it stays stored. A run whose
// RunStarted the file holds but not its RunFinished is marked `incomplete`
// (Store::mark_run_incomplete).
#pragma once

#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <vector>

#include "host/store/store.h"

namespace schedrig::store {

// What an import did.
struct ImportReport {
  std::size_t stored = 0;      // envelopes stored by this import
  std::size_t duplicates = 0;  // envelopes that were already there
  std::uint8_t version = 0;    // the file's format version (1: no checksums)
  // "" when every record was read; else where the import stopped and why:
  // "record N at byte OFFSET: WHY" (truncated, bad CRC, too large,
  // undecodable, an envelope the store refuses as content).
  std::string bad_record;
  // Runs started in the file without a RunFinished in it whose stored status
  // is `incomplete` after the import, in file order.
  std::vector<std::string> incomplete_runs;
};

// Imports the offline file read from `in`, named `file` in the incomplete
// runs' reasons. Throws OfflineFileError (record 0) for a bad header, with
// nothing stored; schedrig::Error of the StoreError's kind, naming `file`,
// the record and the count stored before it, when the store fails otherwise
// than on the record's content (busy, a refused statement, another agent's
// instance).
ImportReport import_offline(std::istream& in, const std::string& file, Store& store);

}  // namespace schedrig::store
