#include "tests/faults/store_view.h"

#include <sqlite3.h>

namespace schedrig::testing {
namespace {

// Every row's first column of `sql` on a read-only connection to `path`;
// nothing when the file cannot be opened or the query fails.
std::vector<std::string> first_column(const std::string& path, const std::string& sql,
                                      const std::vector<std::string>& args) {
  std::vector<std::string> rows;
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_busy_timeout(db, 5000);
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK) {
      for (std::size_t i = 0; i < args.size(); ++i)
        sqlite3_bind_text(st, static_cast<int>(i + 1), args[i].c_str(), -1, SQLITE_TRANSIENT);
      while (sqlite3_step(st) == SQLITE_ROW) {
        const auto* bytes = static_cast<const char*>(sqlite3_column_blob(st, 0));
        rows.emplace_back(bytes ? bytes : "",
                          static_cast<std::size_t>(sqlite3_column_bytes(st, 0)));
      }
    }
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
  return rows;
}

}  // namespace

long long StoreView::number(const std::string& sql, const std::vector<std::string>& args) const {
  const auto rows = first_column(path_, sql, args);
  if (rows.empty() || rows[0].empty()) return -1;
  try {
    return std::stoll(rows[0]);
  } catch (const std::exception&) {
    return -1;
  }
}

std::string StoreView::text(const std::string& sql, const std::vector<std::string>& args) const {
  const auto rows = first_column(path_, sql, args);
  return rows.empty() ? "" : rows[0];
}

std::vector<std::string> StoreView::column(const std::string& sql,
                                           const std::vector<std::string>& args) const {
  return first_column(path_, sql, args);
}

}  // namespace schedrig::testing
