// The one exception type of schedrig_store.
#pragma once

#include <stdexcept>

namespace schedrig::store {

// Anything the store cannot do: open, migrate, read or write the file.
// what() is one line that names the database file, and the SQL and SQLite's
// message where SQLite refused a statement.
class StoreError : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace schedrig::store
