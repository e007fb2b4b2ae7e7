// A scratch directory per test and raw SQLite helpers for checking the file
// behind the store's back.
#pragma once

#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

namespace schedrig::testing {

// Makes a fresh directory named after the running test; removes it after.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("schedrig-" + std::string(info->test_suite_name()) + "-" + info->name() + "-" +
            std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  std::string file(const std::string& name) const { return (dir_ / name).string(); }

 private:
  std::filesystem::path dir_;
};

// A raw connection, for reading and preparing files outside the store.
class RawDb {
 public:
  explicit RawDb(const std::string& path, int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) {
    if (sqlite3_open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
      throw std::runtime_error("cannot open " + path);
    }
  }
  ~RawDb() { sqlite3_close_v2(db_); }
  RawDb(const RawDb&) = delete;
  RawDb& operator=(const RawDb&) = delete;

  void exec(const std::string& sql) {
    char* err = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
      std::string message = err ? err : "?";
      sqlite3_free(err);
      throw std::runtime_error(sql + ": " + message);
    }
  }

  // First column of the first row as text ("" when no row).
  std::string scalar(const std::string& sql) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
      throw std::runtime_error(sql + ": " + sqlite3_errmsg(db_));
    }
    std::string out;
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
      const unsigned char* text = sqlite3_column_text(st, 0);
      out = text ? reinterpret_cast<const char*>(text) : "";
    } else if (rc != SQLITE_DONE) {
      std::string message = sqlite3_errmsg(db_);
      sqlite3_finalize(st);
      throw std::runtime_error(sql + ": " + message);
    }
    sqlite3_finalize(st);
    return out;
  }

  long long count(const std::string& table) {
    return std::stoll(scalar("SELECT count(*) FROM " + table));
  }

 private:
  sqlite3* db_ = nullptr;
};

}  // namespace schedrig::testing
