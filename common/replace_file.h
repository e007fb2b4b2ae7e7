// Putting a whole file in place without writing through a link someone
// else planted (docs/architecture.md "Runner safety"): the text goes to
// NAME.new made afresh (an old one, or a link at that name, removed first;
// O_CREAT | O_EXCL | O_NOFOLLOW), then rename(2) puts it over NAME. Used by
// the test boot hook (a fake tree the agent writes as root) and by
// `schedrig nightly` (its OUT directory).
#pragma once

#include <string>

namespace schedrig {

// Writes `text` as the whole of `name` under the directory `dirfd`
// (AT_FDCWD: `name` is a path), mode 0644. Throws std::system_error whose
// what() names the file (NAME or NAME.new) and the errno; a NAME.new it made
// is removed again when the write or the rename fails.
void replace_file_at(int dirfd, const std::string& name, const std::string& text);

}  // namespace schedrig
