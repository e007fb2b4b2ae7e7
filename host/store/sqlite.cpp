#include "host/store/sqlite.h"

#include <sqlite3.h>

#include <fmt/format.h>

namespace schedrig::store::sqlite {
namespace {

// SQL as it appears in an error: whitespace runs folded, long text cut.
std::string sql_excerpt(std::string_view sql) {
  std::string out;
  bool space = false;
  for (char c : sql) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  constexpr std::size_t kMax = 120;
  if (out.size() > kMax) out = out.substr(0, kMax) + "...";
  return out;
}

// The StoreError reason for SQLite's result code `rc` (primary or extended).
StoreError::Reason reason_of(int rc) {
  switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return StoreError::Reason::kBusy;
    case SQLITE_NOTADB:
      return StoreError::Reason::kNotAStore;
    default:
      return StoreError::Reason::kSql;
  }
}

}  // namespace

Db::Db(const std::string& path, int flags) : path_(path) {
  int rc = sqlite3_open_v2(path.c_str(), &db_, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close_v2(db_);
    db_ = nullptr;
    throw StoreError(StoreError::Reason::kCannotOpen,
                     fmt::format("store {}: cannot open: {}", path, message));
  }
  sqlite3_extended_result_codes(db_, 1);
}

Db::~Db() {
  cache_.clear();  // finalize before closing
  sqlite3_close_v2(db_);
}

Statement& Db::cached(std::string_view sql) {
  auto found = cache_.find(sql);
  if (found == cache_.end()) {
    found = cache_.emplace(std::string(sql), std::make_unique<Statement>(*this, sql)).first;
  } else {
    found->second->clear();
  }
  return *found->second;
}

void Db::exec(std::string_view sql) {
  std::string text(sql);
  char* err = nullptr;
  if (sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string message = err ? err : sqlite3_errmsg(db_);
    sqlite3_free(err);
    fail(sql, message);
  }
}

int Db::changes() const { return sqlite3_changes(db_); }

long long Db::last_insert_rowid() const { return sqlite3_last_insert_rowid(db_); }

bool Db::read_only() const { return sqlite3_db_readonly(db_, "main") == 1; }

void Db::fail(std::string_view sql, std::string_view message) const {
  std::string why = message.empty() ? std::string(sqlite3_errmsg(db_)) : std::string(message);
  throw StoreError(reason_of(sqlite3_errcode(db_)),
                   fmt::format("store {}: {} (in: {})", path_, why, sql_excerpt(sql)));
}

Statement::Statement(const Db& db, std::string_view sql) : db_(db), sql_(sql) {
  if (sqlite3_prepare_v2(db.handle(), sql_.data(), static_cast<int>(sql_.size()), &stmt_,
                         nullptr) != SQLITE_OK) {
    db_.fail(sql_);
  }
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement& Statement::bind_text(int index, std::string_view text) {
  if (sqlite3_bind_text64(stmt_, index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8) !=
      SQLITE_OK) {
    db_.fail(sql_);
  }
  return *this;
}

Statement& Statement::bind_blob(int index, std::string_view bytes) {
  // A zero-length blob must still be a blob, not NULL: pass a non-null pointer.
  static const char kEmpty = 0;
  const char* data = bytes.empty() ? &kEmpty : bytes.data();
  if (sqlite3_bind_blob64(stmt_, index, data, bytes.size(), SQLITE_TRANSIENT) != SQLITE_OK) {
    db_.fail(sql_);
  }
  return *this;
}

Statement& Statement::bind_int(int index, long long value) {
  if (sqlite3_bind_int64(stmt_, index, value) != SQLITE_OK) db_.fail(sql_);
  return *this;
}

Statement& Statement::bind_double(int index, double value) {
  if (sqlite3_bind_double(stmt_, index, value) != SQLITE_OK) db_.fail(sql_);
  return *this;
}

Statement& Statement::bind_null(int index) {
  if (sqlite3_bind_null(stmt_, index) != SQLITE_OK) db_.fail(sql_);
  return *this;
}

bool Statement::step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  db_.fail(sql_);
}

void Statement::run() {
  while (step()) {
  }
}

void Statement::reset() { sqlite3_reset(stmt_); }

void Statement::clear() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

bool Statement::is_null(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

long long Statement::column_int(int column) const { return sqlite3_column_int64(stmt_, column); }

double Statement::column_double(int column) const { return sqlite3_column_double(stmt_, column); }

std::string Statement::column_text(int column) const {
  const unsigned char* text = sqlite3_column_text(stmt_, column);
  int size = sqlite3_column_bytes(stmt_, column);
  if (!text) return {};
  return std::string(reinterpret_cast<const char*>(text), static_cast<std::size_t>(size));
}

std::string Statement::column_blob(int column) const {
  const void* data = sqlite3_column_blob(stmt_, column);
  int size = sqlite3_column_bytes(stmt_, column);
  if (!data) return {};
  return std::string(static_cast<const char*>(data), static_cast<std::size_t>(size));
}

Transaction::Transaction(Db& db, Kind kind) : db_(db) {
  db_.exec(kind == Kind::kImmediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED");
}

Transaction::~Transaction() {
  if (open_) sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
  db_.exec("COMMIT");
  open_ = false;
}

Savepoint::Savepoint(Db& db) : db_(db) { db_.cached("SAVEPOINT item").run(); }

Savepoint::~Savepoint() {
  if (open_) {
    sqlite3_exec(db_.handle(), "ROLLBACK TO item; RELEASE item", nullptr, nullptr, nullptr);
  }
}

void Savepoint::release() {
  db_.cached("RELEASE item").run();
  open_ = false;
}

void Savepoint::rollback() {
  open_ = false;
  db_.cached("ROLLBACK TO item").run();
  db_.cached("RELEASE item").run();
}

}  // namespace schedrig::store::sqlite
