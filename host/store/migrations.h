// The store's schema, as a list of steps numbered by PRAGMA user_version
// (internal to schedrig_store).
#pragma once

#include "host/store/sqlite.h"

namespace schedrig::store {

// The schema version this build writes and reads (the last step's number).
int latest_schema_version();

// PRAGMA user_version of the open file. Throws StoreError ("file is not a
// database" for a file that is not SQLite).
int read_schema_version(sqlite::Db& db);

// Throws StoreError naming the file and both versions when the file's schema
// is newer than this build knows. Writes nothing.
void refuse_newer_schema(sqlite::Db& db);

// Applies every step above the file's version, each in its own transaction
// that re-reads the version first (another process may be migrating too).
// Throws StoreError naming the file and both versions when the file is newer
// than this build (see refuse_newer_schema), or read-only and older.
void migrate(sqlite::Db& db);

// As migrate, but stops after step `version` (tests build old-schema files
// with it). Throws StoreError as migrate does.
void migrate_to(sqlite::Db& db, int version);

}  // namespace schedrig::store
