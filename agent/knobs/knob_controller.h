// Applies knob settings safely (docs/architecture.md "Knobs", "Runner safety"):
// journal the originals before the first write, write, read back and
// verify, and always put everything back — at the end, on an exception
// (destructor), on SIGINT/SIGTERM (the caller stops and destroys us), and at
// the next agent start after a crash (recover()).
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "agent/knobs/journal.h"
#include "agent/knobs/knob.h"
#include "agent/knobs/knob_lock.h"
#include "common/procfs/root.h"

namespace schedrig::knobs {

// Whether one knob is readable/writable here (sent in Hello).
// How many feature names a probe reports (Hello's KnobCapability.features).
constexpr std::size_t kMaxHelloFeatures = 512;
// The longest knob value a probe reports (Hello's KnobCapability.value).
constexpr std::size_t kMaxHelloValueBytes = 4096;

struct Capability {
  KnobSetting knob;  // value empty
  std::string path;
  bool readable = false;
  bool writable = false;
  int errno_value = 0;
  std::vector<std::string> features;  // the features file only: its names, when readable
  // The value when it was read: a sysctl's or tunable's text (at most
  // kMaxHelloValueBytes); for the features file its line, NAME or NO_NAME
  // per feature in name order. nullopt when unreadable.
  std::optional<std::string> value;
  std::size_t features_left_out = 0;  // the features file's names past kMaxHelloFeatures
};

// How long taking the per-root lock may wait for another holder.
inline constexpr std::chrono::seconds kLockWait{30};

class KnobController {
 public:
  // Knobs are read and written under `root` (the live machine or a fake
  // tree); the journal lives in `state_dir`. No I/O happens until a call
  // needs it.
  KnobController(procfs::Root root, std::string state_dir);
  // Restores everything journaled by this controller; logs, never throws.
  ~KnobController();
  KnobController(const KnobController&) = delete;
  KnobController& operator=(const KnobController&) = delete;

  // Agent start-up: a journal of this root and boot is restored (entries
  // validated as a set would be, values verified, journal removed) and the
  // restored entries returned; one of another boot is logged and discarded
  // (a reboot already reset the knobs); one of another root is logged and
  // left in place, never applied here. Throws KnobError when a
  // restore fails (the journal is kept for the next try).
  std::vector<JournalEntry> recover();

  // Every allowlisted sysctl and tunable, and the features file, probed.
  std::vector<Capability> probe() const;

  // Checks, before anything runs, that each knob exists and can be written
  // here: unknown feature names throw KnobError; a missing or locked file
  // throws KnobUnavailable naming the knob, path and errno.
  void check(const std::vector<KnobSetting>& settings) const;

  // Sets each knob: value "" means its journaled original. Journals every
  // knob's original before its first write (taking the per-root lock on the
  // first call), writes, and verifies by reading back. Throws KnobError /
  // KnobUnavailable; what was written stays journaled.
  void apply(const std::vector<KnobSetting>& settings);

  // The current value of each setting's knob ("on"/"off" for features).
  std::map<std::string, std::string> current(const std::vector<KnobSetting>& settings) const;

  // Writes every journaled original back and verifies it, removes the
  // journal and releases the lock (also when nothing was journaled). Tries every knob; throws
  // KnobUnavailable listing those that failed (the journal is then kept).
  void restore();

  // Takes the per-root lock now unless held (a run holds it from its start
  // to its end, knobs or not, so a console `knobs set` cannot land in the
  // middle of it). Waits up to kLockWait, telling the observer; throws as
  // KnobLock does. restore() (or release_lock()) lets it go.
  void hold_lock();
  // Lets the lock go unless knobs are journaled and not yet put back (then
  // restore() lets it go once they are).
  void release_lock();
  bool holds_lock() const { return lock_ != nullptr; }

  // From now on a wait for the per-root lock (another process holds it) is
  // told to `on_wait` as it starts and ends (KnobLock); {} stops telling.
  void set_lock_wait_observer(LockWaitObserver on_wait) { on_lock_wait_ = std::move(on_wait); }

  // Releases the lock but keeps the journal on disk (`knobs set`: the next
  // `knobs restore` or agent start puts the originals back).
  void keep_journal();

  const procfs::Root& root() const { return root_; }
  const std::string& journal_file() const { return journal_file_; }

 private:
  void ensure_locked();
  void journal_original(const KnobSetting& knob);
  std::string read_value(const KnobSetting& knob) const;
  void write_value(const KnobSetting& knob, const std::string& value) const;

  procfs::Root root_;
  std::string journal_file_;
  std::unique_ptr<KnobLock> lock_;
  LockWaitObserver on_lock_wait_;
  std::optional<Journal> journal_;  // loaded or made on the first apply
};

// Restores `journal` under its root without a controller (used by recover
// and `knobs restore`). Each entry is validated as a set would be
// (allowlisted name, value in range, feature known to the features file);
// an invalid one is logged, not written, and its name added to `*refused`.
// Returns the knobs that failed to restore, with reasons.
std::vector<std::string> restore_entries(const Journal& journal,
                                         std::vector<std::string>* refused = nullptr);

}  // namespace schedrig::knobs
