// Creating the store file private to its owner (internal to schedrig_store).
#pragma once

#include <string>

namespace schedrig::store {

// Creates `path` empty with mode 0600 whatever the umask when it does not
// exist (O_CREAT|O_EXCL|O_NOFOLLOW), so that SQLite, which gives -wal and
// -shm the database file's mode, makes them 0600 too. An existing file is
// left as it is. ":memory:" and "" (SQLite's temporary database) are left
// alone. Throws StoreError kCannotOpen naming the path when `path` is a
// symbolic link or cannot be created.
void create_private_file(const std::string& path);

}  // namespace schedrig::store
