#include "agent/knobs/journal.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/file_owner.h"
#include "common/procfs/read_file.h"

namespace schedrig::knobs {
namespace {

namespace fs = std::filesystem;

// A journal lists at most a few dozen knobs: far below this.
constexpr std::size_t kJournalMaxBytes = 1 << 20;

[[noreturn]] void fail(const std::string& what, const std::string& file) {
  throw KnobError(fmt::format("journal {}: {}: {}", file, what, std::strerror(errno)));
}

void fsync_path(const std::string& path, int flags) {
  int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  if (fd < 0) fail("open for fsync", path);
  int rc = ::fsync(fd);
  ::close(fd);
  if (rc != 0) fail("fsync", path);
}

KnobKind kind_from(const std::string& s, const std::string& file) {
  if (s == "feature") return KnobKind::kFeature;
  if (s == "sysctl") return KnobKind::kSysctl;
  if (s == "debugfs") return KnobKind::kDebugfs;
  throw KnobError(fmt::format("journal {}: unknown knob kind '{}'", file, s));
}

nlohmann::json to_json(const Journal& j) {
  nlohmann::json entries = nlohmann::json::array();
  for (const auto& e : j.entries) {
    entries.push_back({{"name", e.original.name},
                       {"kind", kind_name(e.original.kind)},
                       {"original", e.original.value},
                       {"path", e.path}});
  }
  return {{"format", 1},
          {"boot_id", j.boot_id},
          {"root", j.root.flag_text()},
          {"created_at_ns", j.created_at_ns},
          {"pid", j.pid},
          {"entries", entries}};
}

// Writes `text` to a fresh `tmp` (a stale one, or a link planted there, is
// unlinked first; O_EXCL|O_NOFOLLOW never follow one) and fsyncs it.
void write_new_file(const std::string& tmp, const std::string& text) {
  if (::unlink(tmp.c_str()) != 0 && errno != ENOENT) fail("remove stale", tmp);
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) fail("create", tmp);
  std::size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : EIO;
      ::close(fd);
      errno = err;
      fail("write", tmp);
    }
    done += static_cast<std::size_t>(n);
  }
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  errno = err;
  if (rc != 0) fail("fsync", tmp);
}

}  // namespace

std::string journal_path(const std::string& state_dir) { return state_dir + "/knobs-journal.json"; }

void write_journal(const std::string& file, const Journal& journal) {
  const fs::path dir = fs::path(file).parent_path();
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    throw KnobError(
        fmt::format("journal {}: cannot create {}: {}", file, dir.string(), ec.message()));
  const std::string tmp = file + ".tmp";
  write_new_file(tmp, to_json(journal).dump(2) + "\n");
  if (::rename(tmp.c_str(), file.c_str()) != 0) fail("rename", tmp);
  fsync_path(dir.string(), O_RDONLY | O_DIRECTORY);
}

std::optional<std::string> journal_trust_problem(const std::string& file) {
  struct stat st {};
  if (::lstat(file.c_str(), &st) != 0) {
    if (errno == ENOENT) return std::nullopt;
    return fmt::format("journal {}: cannot stat it: {}", file, std::strerror(errno));
  }
  std::string why;
  if (!S_ISREG(st.st_mode)) {
    why = "not a regular file";
  } else if (const auto owner = untrusted_owner(st.st_uid)) {
    why = *owner;
  } else if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    why = fmt::format("mode {:04o}: writable by group or other", st.st_mode & 07777);
  } else {
    return std::nullopt;
  }
  return fmt::format(
      "journal {}: {}, so another user could have chosen the values a restore writes; chown root "
      "and chmod 0600 it, or remove it once the knobs it lists are checked",
      file, why);
}

std::optional<Journal> read_journal(const std::string& file) {
  if (auto why = journal_trust_problem(file)) throw KnobError(*why);
  int err = 0;
  auto text = procfs::try_read_small_file(file, &err, kJournalMaxBytes);
  if (!text) {
    if (err == ENOENT) return std::nullopt;
    throw KnobError(fmt::format("journal {}: read: {}", file, std::strerror(err)));
  }
  try {
    auto j = nlohmann::json::parse(*text);
    Journal out;
    out.boot_id = j.at("boot_id").get<std::string>();
    out.root = procfs::Root::from_flag(j.at("root").get<std::string>());
    out.created_at_ns = j.at("created_at_ns").get<long long>();
    out.pid = j.value("pid", 0);
    for (const auto& e : j.at("entries")) {
      out.entries.push_back({{kind_from(e.at("kind").get<std::string>(), file),
                              e.at("name").get<std::string>(), e.at("original").get<std::string>()},
                             e.at("path").get<std::string>()});
    }
    return out;
  } catch (const nlohmann::json::exception& e) {
    throw KnobError(fmt::format("journal {}: not a schedrig knob journal: {}", file, e.what()));
  }
}

void remove_journal(const std::string& file) {
  if (::unlink(file.c_str()) != 0 && errno != ENOENT) fail("remove", file);
  std::error_code ec;
  auto dir = fs::path(file).parent_path();
  if (fs::exists(dir, ec)) fsync_path(dir.string(), O_RDONLY | O_DIRECTORY);
}

}  // namespace schedrig::knobs
