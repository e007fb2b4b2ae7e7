// Opening the results store for the read commands (results, agents,
// compare, watch): read-only, so a typo never creates an empty file.
#pragma once

#include <string>
#include <utility>

#include "common/cli_error.h"
#include "host/store/default_db_path.h"
#include "host/store/store.h"

namespace schedrig::host {

// `--db` as given, or the lab's default store when empty.
inline std::string db_path_or_default(const std::string& db) {
  return db.empty() ? store::default_db_path() : db;
}

// Opens `db` (or the default) read-only and returns read(store). A
// StoreError becomes a CliError with the store's message and its own kind
// (StoreError::kind_for): exit 2 for a missing file, not a schedrig store
// or a bad schema; exit 1 for a busy (locked) store or a failed statement.
template <class Read>
auto read_store(const std::string& db, Read&& read) {
  try {
    store::Store store(db_path_or_default(db), store::Store::Mode::kReadOnly);
    return std::forward<Read>(read)(store);
  } catch (const store::StoreError& e) {
    throw CliError(e.kind(), e.what());
  }
}

}  // namespace schedrig::host
