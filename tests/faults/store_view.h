// Read-only queries on a serve's store file for the faults suite's checks
// (host/store/migrations.cpp is the schema). Each query opens the file anew,
// so it works beside a live serve (WAL), a killed one and a restarted one.
#pragma once

#include <string>
#include <vector>

namespace schedrig::testing {

class StoreView {
 public:
  explicit StoreView(std::string path) : path_(std::move(path)) {}

  // The first column of the first row of `sql`, with `args` bound to ?1,
  // ?2, ... as text: as an integer (-1 when the file or the query failed or
  // there was no row), as text ("" then), or the first column of every row
  // as bytes (text or blob).
  long long number(const std::string& sql, const std::vector<std::string>& args = {}) const;
  std::string text(const std::string& sql, const std::vector<std::string>& args = {}) const;
  std::vector<std::string> column(const std::string& sql,
                                  const std::vector<std::string>& args = {}) const;

 private:
  std::string path_;
};

}  // namespace schedrig::testing
