#include "agent/knobs/journal.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace schedrig::knobs {
namespace {

namespace fs = std::filesystem;

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
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << to_json(journal).dump(2) << "\n";
    out.flush();
    if (!out) fail("write", tmp);
  }
  fsync_path(tmp, O_RDONLY);
  if (::rename(tmp.c_str(), file.c_str()) != 0) fail("rename", tmp);
  fsync_path(dir.string(), O_RDONLY | O_DIRECTORY);
}

std::optional<Journal> read_journal(const std::string& file) {
  std::ifstream in(file);
  if (!in) {
    if (errno == ENOENT) return std::nullopt;
    fail("read", file);
  }
  std::stringstream text;
  text << in.rdbuf();
  try {
    auto j = nlohmann::json::parse(text.str());
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
