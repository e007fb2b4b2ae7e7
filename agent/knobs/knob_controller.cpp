#include "agent/knobs/knob_controller.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "agent/knobs/allowlist.h"
#include "agent/knobs/features.h"
#include "agent/knobs/knob_file.h"
#include "agent/knobs/knob_paths.h"
#include "common/ids.h"
#include "common/printable.h"

namespace schedrig::knobs {
namespace {

using namespace std::chrono_literals;

// The boot id the journal is scoped by: the fake root's when it has one.
std::string boot_id_for(const procfs::Root& root) {
  std::error_code ec;
  if (!root.is_live() && std::filesystem::exists(root.path("proc/sys/kernel/random/boot_id"), ec)) {
    return read_boot_id(root);
  }
  return read_boot_id(procfs::Root::live());
}

std::string read_on(const procfs::Root& root, const KnobSetting& k) {
  if (k.kind == KnobKind::kFeature) {
    FeaturesFile f(root);
    f.check_known(k.name);
    return f.read().at(k.name) ? "on" : "off";
  }
  return read_knob_file(knob_path(root, k));
}

void write_on(const procfs::Root& root, const KnobSetting& k, const std::string& value) {
  if (k.kind == KnobKind::kFeature) return FeaturesFile(root).set(k.name, value == "on");
  const std::string path = knob_path(root, k);
  write_knob_file(path, value);
  std::string now = read_knob_file(path);
  if (now != value) {
    throw KnobUnavailable(
        fmt::format("wrote {}={} to {} but it reads back '{}'", k.name, value, path, now), EIO);
  }
}

// The features file's names and its line (NAME or NO_NAME each, in name
// order), at most kMaxHelloFeatures; none when it cannot be read or parsed
// (the probe reports the file, the check the rest).
void read_features(const procfs::Root& root, Capability& c) {
  try {
    for (const auto& [name, on] : FeaturesFile(root).read()) {
      if (c.features.size() == kMaxHelloFeatures) {
        ++c.features_left_out;
        continue;
      }
      const std::string safe = printable(name);  // valid UTF-8 for Hello; the host skips it
      c.features.push_back(safe);
      c.value =
          fmt::format("{}{}{}", c.value.value_or(""), c.value ? " " : "", on ? safe : "NO_" + safe);
    }
  } catch (const KnobError&) {
    c.features.clear();
    c.value.reset();
    c.features_left_out = 0;
  }
}

// A sysctl's or tunable's value, when it reads, is at most
// kMaxHelloValueBytes and is UTF-8 (a protobuf string must be).
std::optional<std::string> small_value(const std::string& path) {
  try {
    std::string v = read_knob_file(path);
    if (v.size() <= kMaxHelloValueBytes && well_formed_utf8(v)) return v;
  } catch (const KnobError&) {
  }
  return std::nullopt;
}

Capability probe_one(const procfs::Root& root, KnobSetting knob) {
  Capability c;
  c.knob = std::move(knob);
  c.path = knob_path(root, c.knob);
  Access a = probe_access(c.path);
  c.readable = a.readable;
  c.writable = a.writable;
  c.errno_value = a.errno_value;
  if (!c.readable) return c;
  if (c.knob.kind == KnobKind::kFeature) {
    read_features(root, c);
  } else {
    c.value = small_value(c.path);
  }
  return c;
}

// Checks a journaled original as a set would (allowlisted name, value in
// range; a feature's "on"/"off" and its name in the features file), so a
// tampered journal cannot make the restore write anything a set could not.
// Throws KnobError naming the entry.
void validate_entry(const procfs::Root& root, const KnobSetting& k) {
  if (k.kind == KnobKind::kFeature) {
    if (k.value != "on" && k.value != "off") {
      throw KnobError(fmt::format("feature {}: value '{}' is neither on nor off", k.name, k.value));
    }
    if (parse_knob(k.name, true).kind != KnobKind::kFeature) {
      throw KnobError(fmt::format("feature '{}' is not a feature name", k.name));
    }
    return FeaturesFile(root).check_known(k.name);
  }
  const auto& list = k.kind == KnobKind::kSysctl ? sysctl_allowlist() : debugfs_allowlist();
  const TunableSpec* spec = find_spec(list, k.name);
  if (!spec)
    throw KnobError(fmt::format("{} '{}' is not on the allowlist", kind_name(k.kind), k.name));
  check_value(*spec, k.value);
}

}  // namespace

std::vector<std::string> restore_entries(const Journal& journal,
                                         std::vector<std::string>* refused) {
  std::vector<std::string> failures;
  for (auto it = journal.entries.rbegin(); it != journal.entries.rend(); ++it) {
    try {
      validate_entry(journal.root, it->original);
    } catch (const KnobUnavailable& e) {
      failures.push_back(e.what());  // the features file cannot be read: retry later
      continue;
    } catch (const KnobError& e) {
      spdlog::warn("journal entry {} {}='{}' refused, not restored: {}",
                   kind_name(it->original.kind), it->original.name, it->original.value, e.what());
      if (refused) refused->push_back(it->original.name);
      continue;
    }
    try {
      write_on(journal.root, it->original, it->original.value);
    } catch (const KnobError& e) {
      failures.push_back(e.what());
    }
  }
  return failures;
}

KnobController::KnobController(procfs::Root root, std::string state_dir)
    : root_(std::move(root)), journal_file_(journal_path(state_dir)) {}

KnobController::~KnobController() {
  if (!journal_) return;
  try {
    restore();
  } catch (const std::exception& e) {
    spdlog::error("knobs not restored: {} (journal kept at {})", e.what(), journal_file_);
  }
}

std::vector<JournalEntry> KnobController::recover() {
  auto found = read_journal(journal_file_);
  if (!found) return {};
  if (found->root != root_) {
    spdlog::warn(
        "journal {} is for {}, not {} (this --root): left in place, not applied; restore it with "
        "`schedrig-agent knobs restore --root '{}'`",
        journal_file_, found->root.describe(), root_.describe(), found->root.flag_text());
    return {};
  }
  if (found->boot_id != boot_id_for(found->root)) {
    spdlog::warn(
        "journal {} is from boot {}, not this one: a reboot already reset its {} knobs; discarded",
        journal_file_, found->boot_id, found->entries.size());
    remove_journal(journal_file_);
    return {};
  }
  KnobLock lock(found->root, kLockWait);
  std::vector<std::string> refused;
  auto failures = restore_entries(*found, &refused);
  if (!failures.empty()) {
    throw KnobUnavailable(
        fmt::format("restoring from {} failed: {}", journal_file_, fmt::join(failures, "; ")), EIO);
  }
  std::vector<JournalEntry> restored;
  for (const auto& e : found->entries) {
    if (std::find(refused.begin(), refused.end(), e.original.name) != refused.end()) continue;
    spdlog::info("restored {} to its original value ({}) on {} (journal {}, pid {})",
                 e.original.name, knob_text(e.original), root_.describe(), journal_file_,
                 found->pid);
    restored.push_back(e);
  }
  remove_journal(journal_file_);
  return restored;
}

std::vector<Capability> KnobController::probe() const {
  std::vector<Capability> out;
  out.push_back(probe_one(root_, {KnobKind::kFeature, "*", ""}));
  for (const auto& s : sysctl_allowlist())
    out.push_back(probe_one(root_, {KnobKind::kSysctl, s.name, ""}));
  for (const auto& s : debugfs_allowlist())
    out.push_back(probe_one(root_, {KnobKind::kDebugfs, s.name, ""}));
  return out;
}

void KnobController::check(const std::vector<KnobSetting>& settings) const {
  for (const auto& s : settings) {
    const std::string path = knob_path(root_, s);
    Access a = probe_access(path);
    if (!a.readable || !a.writable) {
      throw KnobUnavailable(
          fmt::format("{} {} cannot be changed here: {}: {} ({})", kind_name(s.kind), knob_text(s),
                      path, std::strerror(a.errno_value),
                      strerrorname_np(a.errno_value) ? strerrorname_np(a.errno_value) : "?"),
          a.errno_value);
    }
    if (s.kind == KnobKind::kFeature) FeaturesFile(root_).check_known(s.name);
  }
}

void KnobController::hold_lock() {
  if (!lock_) lock_ = std::make_unique<KnobLock>(root_, kLockWait, on_lock_wait_);
}

void KnobController::release_lock() {
  if (!journal_) lock_.reset();
}

void KnobController::ensure_locked() {
  hold_lock();
  if (journal_) return;
  auto found = read_journal(journal_file_);
  if (found && found->boot_id == boot_id_for(root_) && found->root == root_) {
    journal_ = std::move(found);  // a console `knobs set` journaled these already
  } else {
    journal_ =
        Journal{boot_id_for(root_), root_, wall_clock_ns(), static_cast<int>(::getpid()), {}};
  }
}

namespace {

// Throws KnobError unless a restore would write `original` back: a knob
// whose original it would refuse is never changed.
void check_restorable(const procfs::Root& root, const KnobSetting& original, const char* what) {
  try {
    validate_entry(root, original);
  } catch (const KnobUnavailable&) {
    throw;
  } catch (const KnobError& e) {
    throw KnobError(fmt::format("{} {} not changed: its {} could not be restored ({})",
                                kind_name(original.kind), original.name, what, e.what()));
  }
}

}  // namespace

void KnobController::journal_original(const KnobSetting& knob) {
  ensure_locked();
  for (const auto& e : journal_->entries) {
    // Journaled already (an adopted `knobs set` journal): checked all the same.
    if (e.original.name == knob.name)
      return check_restorable(root_, e.original, "journaled original");
  }
  KnobSetting original{knob.kind, knob.name, read_on(root_, knob)};
  check_restorable(root_, original, "value as found");
  journal_->entries.push_back({original, knob_path(root_, knob)});
  write_journal(journal_file_, *journal_);
}

std::string KnobController::read_value(const KnobSetting& knob) const {
  return read_on(root_, knob);
}

void KnobController::write_value(const KnobSetting& knob, const std::string& value) const {
  write_on(root_, knob, value);
}

void KnobController::apply(const std::vector<KnobSetting>& settings) {
  for (const auto& s : settings) {
    journal_original(s);
    std::string want = s.value;
    if (want.empty()) {
      for (const auto& e : journal_->entries) {
        if (e.original.name == s.name) want = e.original.value;
      }
      validate_entry(root_, {s.kind, s.name, want});  // the journal may be a planted one
    }
    if (read_value(s) != want) write_value(s, want);
  }
}

std::map<std::string, std::string> KnobController::current(
    const std::vector<KnobSetting>& settings) const {
  std::map<std::string, std::string> out;
  for (const auto& s : settings) out[s.name] = read_value(s);
  return out;
}

void KnobController::restore() {
  if (!journal_) return lock_.reset();
  std::vector<std::string> refused;
  auto failures = restore_entries(*journal_, &refused);
  for (const auto& name : refused) {
    failures.push_back(fmt::format("{}: its journaled original was refused, left as it is", name));
  }
  if (!failures.empty()) {
    throw KnobUnavailable(fmt::format("restore failed: {}", fmt::join(failures, "; ")), EIO);
  }
  remove_journal(journal_file_);
  journal_.reset();
  lock_.reset();
}

void KnobController::keep_journal() {
  journal_.reset();
  lock_.reset();
}

}  // namespace schedrig::knobs
