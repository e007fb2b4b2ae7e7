#include "agent/knobs/persisted_knobs.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <map>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "agent/knobs/allowlist.h"
#include "common/printable.h"
#include "common/procfs/read_file.h"

namespace schedrig::knobs {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxFilesPerDir = 256;
constexpr std::size_t kMaxFileBytes = 1 << 20;
constexpr std::size_t kMaxSettings = 64;

// The configuration directories of tmpfiles.d(5) and sysctl.d(5), first wins.
constexpr std::array<std::string_view, 4> kConfigDirs = {"etc", "run", "usr/local/lib", "usr/lib"};

struct ConfigFileRef {
  std::string name;      // "schedrig.conf"
  std::string box_path;  // "/etc/tmpfiles.d/schedrig.conf"
  fs::path path;         // under the root
};

// The *.conf files of `subdir` ("tmpfiles.d") across kConfigDirs, an earlier
// directory's name masking a later one's, in name order.
std::vector<ConfigFileRef> config_files(const procfs::Root& root, std::string_view subdir) {
  std::map<std::string, ConfigFileRef> by_name;
  for (const std::string_view dir : kConfigDirs) {
    const std::string box_dir = fmt::format("/{}/{}", dir, subdir);
    std::error_code ec;
    std::size_t seen = 0;
    for (const auto& e : fs::directory_iterator(root.path(box_dir.substr(1)), ec)) {
      if (++seen > kMaxFilesPerDir) break;
      const std::string name = e.path().filename().string();
      if (name.size() < 6 || name.compare(name.size() - 5, 5, ".conf") != 0) continue;
      by_name.try_emplace(name, ConfigFileRef{name, box_dir + "/" + name, e.path()});
    }
  }
  std::vector<ConfigFileRef> out;
  for (auto& [name, ref] : by_name) out.push_back(std::move(ref));
  return out;
}

// The lines of a config file (O_NOFOLLOW: a link, e.g. one to /dev/null that
// masks a file, is read as nothing), empty when unreadable.
std::vector<std::string> lines_of(const fs::path& path) {
  const std::string text = procfs::try_read_small_file(path, nullptr, kMaxFileBytes).value_or("");
  std::vector<std::string> lines;
  std::string_view rest = text;
  while (!rest.empty()) {
    const std::string_view line = procfs::first_line(rest);
    lines.emplace_back(line);
    rest.remove_prefix(std::min(rest.size(), line.size() + 1));
  }
  return lines;
}

std::string_view trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

// The next whitespace-separated field of `rest`, consumed.
std::string_view next_field(std::string_view& rest) {
  rest = trim(rest);
  const auto end = std::min(rest.find_first_of(" \t"), rest.size());
  const std::string_view field = rest.substr(0, end);
  rest.remove_prefix(end);
  return field;
}

bool allowlisted_sysctl(const std::string& name) {
  return find_spec(sysctl_allowlist(), name) != nullptr;
}

// The knob a tmpfiles.d path writes, or nullopt for a path that is none.
std::optional<std::string> knob_of_path(std::string_view path) {
  if (path == "/sys/kernel/debug/sched/features" || path == "/sys/kernel/debug/sched_features")
    return "sched_features";
  constexpr std::string_view kDebugfs = "/sys/kernel/debug/";
  if (path.starts_with("/sys/kernel/debug/sched/"))
    return std::string(path.substr(kDebugfs.size()));
  constexpr std::string_view kProcSys = "/proc/sys/";
  if (!path.starts_with(kProcSys)) return std::nullopt;
  std::string name(path.substr(kProcSys.size()));
  std::replace(name.begin(), name.end(), '/', '.');
  if (!allowlisted_sysctl(name)) return std::nullopt;
  return name;
}

class Collector {
 public:
  // A tmpfiles.d line "Type Path Mode User Group Age Argument" whose type is
  // w (with any modifiers: w+, w-, w!) and whose path is a knob.
  void tmpfiles_line(std::string_view line, const std::string& source) {
    std::string_view rest = line;
    const std::string_view type = next_field(rest);
    if (type.empty() || type[0] != 'w') return;
    const auto knob = knob_of_path(next_field(rest));
    if (!knob) return;
    for (int i = 0; i < 4; ++i) next_field(rest);  // mode, user, group, age
    add(*knob, trim(rest), source);
  }
  // A sysctl.d line "key = value" ("-key = value" ignores a failure) whose
  // key, with '/' as '.', is an allowlisted sysctl.
  void sysctl_line(std::string_view line, const std::string& source) {
    const auto eq = line.find('=');
    if (eq == std::string_view::npos) return;
    std::string key(trim(line.substr(0, eq)));
    if (!key.empty() && key[0] == '-') key.erase(0, 1);
    std::replace(key.begin(), key.end(), '/', '.');
    if (allowlisted_sysctl(key)) add(key, trim(line.substr(eq + 1)), source);
  }
  void read(const ConfigFileRef& file,
            void (Collector::*per_line)(std::string_view, const std::string&)) {
    int n = 0;
    for (const std::string& raw : lines_of(file.path)) {
      ++n;
      const std::string_view line = trim(raw);
      if (line.empty() || line[0] == '#' || line[0] == ';') continue;
      (this->*per_line)(line, fmt::format("{}:{}", file.box_path, n));
    }
  }
  std::vector<PersistedKnob> take() { return std::move(out_); }

 private:
  void add(const std::string& knob, std::string_view value, const std::string& source) {
    if (out_.size() < kMaxSettings)
      out_.push_back({printable(knob), printable(value), printable(source)});
  }
  std::vector<PersistedKnob> out_;
};

}  // namespace

std::vector<PersistedKnob> persisted_knobs(const procfs::Root& root) {
  Collector c;
  for (const auto& f : config_files(root, "tmpfiles.d")) c.read(f, &Collector::tmpfiles_line);
  for (const auto& f : config_files(root, "sysctl.d")) c.read(f, &Collector::sysctl_line);
  c.read({"sysctl.conf", "/etc/sysctl.conf", root.path("etc/sysctl.conf")},
         &Collector::sysctl_line);
  return c.take();
}

std::string persisted_knobs_text(const std::vector<PersistedKnob>& knobs) {
  if (knobs.empty()) return "none";
  std::string out;
  for (const auto& k : knobs) {
    if (!out.empty()) out += "; ";
    out += fmt::format("{}={} ({})", k.knob, k.value, k.source);
  }
  return out;
}

}  // namespace schedrig::knobs
