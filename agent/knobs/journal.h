// The restore journal (docs/architecture.md "Knobs"): before the first knob write the
// original values and the kernel boot_id go to STATE_DIR/knobs-journal.json,
// written atomically (temporary file, fsync, rename, fsync of the directory)
// so a crash at any point leaves either the old or the new journal whole.
// Neither the temporary file nor the journal is opened through a symlink
// (O_NOFOLLOW; the temporary file O_EXCL, mode 0600).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "agent/knobs/knob.h"
#include "common/procfs/root.h"

namespace schedrig::knobs {

struct JournalEntry {
  KnobSetting original;  // name, kind and the value found before the first write
  std::string path;      // the file it was read from
};

struct Journal {
  std::string boot_id;                       // /proc/sys/kernel/random/boot_id when written
  procfs::Root root = procfs::Root::live();  // the knob root; stored as "" when live
  long long created_at_ns = 0;
  int pid = 0;  // the writer
  std::vector<JournalEntry> entries;
};

// STATE_DIR/knobs-journal.json
std::string journal_path(const std::string& state_dir);

// Writes `journal` atomically, creating STATE_DIR. Throws KnobError naming
// the file and errno.
void write_journal(const std::string& file, const Journal& journal);

// Why the journal at `file` may not be believed, or nullopt when it may (or
// does not exist): it must be a regular file owned by this user or root and
// writable by neither group nor other, since a root agent writes what it
// lists into kernel knobs ("journal F: mode 0666: writable by group or
// other; chown root and chmod 0600 it, or remove it").
std::optional<std::string> journal_trust_problem(const std::string& file);

// The journal in `file`, or nullopt when there is none. Throws KnobError
// naming the file when it exists but may not be believed
// (journal_trust_problem), cannot be read (a symlink: ELOOP; over 1 MiB:
// EFBIG) or parsed.
std::optional<Journal> read_journal(const std::string& file);

// Removes the journal (and fsyncs the directory). Missing is fine.
void remove_journal(const std::string& file);

}  // namespace schedrig::knobs
