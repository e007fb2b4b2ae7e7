// A thin RAII layer over the SQLite C API for schedrig_store (internal).
// Every failure throws StoreError naming the file, SQLite's message and the
// SQL that failed.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "host/store/store_error.h"

struct sqlite3;
struct sqlite3_stmt;

namespace schedrig::store::sqlite {

class Statement;

// One connection (sqlite3*), closed on destruction.
class Db {
 public:
  // sqlite3_open_v2(path, flags). Throws StoreError when SQLite cannot open it.
  Db(const std::string& path, int flags);
  ~Db();
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  sqlite3* handle() const { return db_; }
  const std::string& path() const { return path_; }

  // Runs SQL text (one or more statements) that returns no rows of interest.
  void exec(std::string_view sql);

  // The statement for `sql` (one statement), prepared on first use and kept
  // for the connection's life: reset, bindings cleared, ready to bind. The
  // hot paths (ingest) use it instead of preparing per call. A caller must
  // be done with it (stepped to the end or abandoned) before the next
  // cached(sql) of the same text. Throws StoreError when SQLite refuses it.
  Statement& cached(std::string_view sql);

  // Rows changed by the last INSERT/UPDATE/DELETE on this connection.
  int changes() const;
  long long last_insert_rowid() const;
  // True when SQLite opened the file read-only (e.g. write-protected).
  bool read_only() const;

  // Throws StoreError "store PATH: MESSAGE (in: SQL)" with SQLite's current
  // message for this connection (or `message` when not empty).
  [[noreturn]] void fail(std::string_view sql, std::string_view message = {}) const;

 private:
  std::string path_;
  sqlite3* db_ = nullptr;
  // Looked up by string_view: no string is built per cached() call.
  struct SqlHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view sql) const {
      return std::hash<std::string_view>{}(sql);
    }
  };
  std::unordered_map<std::string, std::unique_ptr<Statement>, SqlHash, std::equal_to<>> cache_;
};

// One prepared statement, finalized on destruction. Bind indexes are 1-based,
// column indexes 0-based (as in SQLite).
class Statement {
 public:
  Statement(const Db& db, std::string_view sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind_text(int index, std::string_view text);
  Statement& bind_blob(int index, std::string_view bytes);
  Statement& bind_int(int index, long long value);
  Statement& bind_double(int index, double value);
  Statement& bind_null(int index);

  // Advances: true when a row is ready to read, false when done.
  bool step();
  // Steps a statement that returns no rows (INSERT, UPDATE, ...).
  void run();
  // Makes the statement ready to step again; bindings are kept.
  void reset();
  // reset() and every binding back to NULL.
  void clear();

  bool is_null(int column) const;
  long long column_int(int column) const;
  double column_double(int column) const;
  std::string column_text(int column) const;
  std::string column_blob(int column) const;

 private:
  const Db& db_;
  std::string sql_;
  sqlite3_stmt* stmt_ = nullptr;
};

// BEGIN ... COMMIT; rolls back on destruction unless committed.
class Transaction {
 public:
  enum class Kind { kDeferred, kImmediate };
  explicit Transaction(Db& db, Kind kind = Kind::kImmediate);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();

 private:
  Db& db_;
  bool open_ = true;
};

// SAVEPOINT inside a transaction: release() keeps what was done since,
// rollback() undoes it (the transaction stays open); destruction without
// either rolls back. Throws StoreError when SQLite refuses (e.g. the
// transaction itself was rolled back by SQLite).
class Savepoint {
 public:
  explicit Savepoint(Db& db);
  ~Savepoint();
  Savepoint(const Savepoint&) = delete;
  Savepoint& operator=(const Savepoint&) = delete;
  void release();
  void rollback();

 private:
  Db& db_;
  bool open_ = true;
};

}  // namespace schedrig::store::sqlite
