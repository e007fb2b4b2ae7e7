#include "agent/knobs/persisted_knobs.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "agent/knobs/persisted_paths.h"
#include "common/printable.h"
#include "common/procfs/read_file.h"

namespace schedrig::knobs {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxFilesPerKind = 256;  // .conf files of tmpfiles.d (or sysctl.d)
constexpr std::size_t kMaxDirEntries = 4096;   // entries looked at in one directory
constexpr std::size_t kMaxFileBytes = 1 << 20;
constexpr std::size_t kMaxSettings = 64;

// The configuration directories of tmpfiles.d(5) and sysctl.d(5), first wins.
constexpr std::array<std::string_view, 4> kConfigDirs = {"etc", "run", "usr/local/lib", "usr/lib"};

struct ConfigFileRef {
  std::string name;      // "schedrig.conf"
  std::string box_path;  // "/etc/tmpfiles.d/schedrig.conf"
  fs::path path;         // under the root
};

bool is_conf(const std::string& name) { return name.size() > 5 && name.ends_with(".conf"); }

// The *.conf files of `subdir` ("tmpfiles.d") across kConfigDirs, an earlier
// directory's name masking a later one's, in name order; those past
// kMaxFilesPerKind are counted in `left_out`, a directory with more than
// kMaxDirEntries entries (whose rest is not looked at) named in `too_big`.
std::vector<ConfigFileRef> config_files(const procfs::Root& root, std::string_view subdir,
                                        std::size_t& left_out, std::vector<std::string>& too_big) {
  std::map<std::string, ConfigFileRef> by_name;
  for (const std::string_view dir : kConfigDirs) {
    const std::string box_dir = fmt::format("/{}/{}", dir, subdir);
    std::error_code ec;
    std::size_t seen = 0;
    for (const auto& e : fs::directory_iterator(root.path(box_dir.substr(1)), ec)) {
      if (++seen > kMaxDirEntries) {
        too_big.push_back(fmt::format("{}: more than {} entries", box_dir, kMaxDirEntries));
        break;
      }
      const std::string name = e.path().filename().string();
      if (is_conf(name))
        by_name.try_emplace(name, ConfigFileRef{name, box_dir + "/" + name, e.path()});
    }
  }
  std::vector<ConfigFileRef> out;
  for (auto& [name, ref] : by_name) {
    if (out.size() == kMaxFilesPerKind) {
      ++left_out;
      continue;
    }
    out.push_back(std::move(ref));
  }
  return out;
}

// Where a config file's text is: the file, or the target of the one link it
// may be (tmpfiles.d(5): a link to /dev/null masks). An absolute target is
// taken under `root`; nullopt for a mask.
std::optional<fs::path> text_path(const procfs::Root& root, const fs::path& path) {
  std::error_code ec;
  if (!fs::is_symlink(fs::symlink_status(path, ec))) return path;
  const fs::path target = fs::read_symlink(path, ec);
  if (target == "/dev/null") return std::nullopt;
  return target.is_absolute() ? root.path(target.string()) : path.parent_path() / target;
}

// The lines of the text at `path` (O_NOFOLLOW: a link to a link is not
// read), or nullopt with the reason in `why`.
std::optional<std::vector<std::string>> lines_of(const fs::path& path, std::string& why) {
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(path, ec);
  if (!ec && st.type() != fs::file_type::regular && st.type() != fs::file_type::symlink) {
    why = "not a regular file";  // never opened: opening a device can act (a watchdog arms)
    return std::nullopt;
  }
  int err = 0;
  const auto read = procfs::try_read_small_file(path, &err, kMaxFileBytes);
  if (!read) {
    why = err == EFBIG ? "over 1 MiB" : err == ELOOP ? "a link to a link" : std::strerror(err);
    return std::nullopt;
  }
  std::vector<std::string> lines;
  std::string_view rest = *read;
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

class Collector {
 public:
  // A tmpfiles.d line "Type Path Mode User Group Age Argument" whose type is
  // w (with any modifiers: w+, w-, w!) and whose path is a knob.
  void tmpfiles_line(std::string_view line, const std::string& source) {
    std::string_view rest = line;
    const std::string_view type = next_field(rest);
    if (type.empty() || type[0] != 'w') return;
    const std::string path = tmpfiles_path(next_field(rest));
    for (int i = 0; i < 4; ++i) next_field(rest);  // mode, user, group, age
    add_named(knobs_of_tmpfiles_path(path), path, trim(rest), source);
  }
  // A sysctl.d line "key = value" ("-key = value" ignores a failure) whose
  // key, with '/' as '.', is an allowlisted sysctl.
  void sysctl_line(std::string_view line, const std::string& source) {
    const auto eq = line.find('=');
    if (eq == std::string_view::npos) return;
    const std::string_view key = trim(line.substr(0, eq));
    add_named(knobs_of_sysctl_key(key), key, trim(line.substr(eq + 1)), source);
  }
  void read(const procfs::Root& root, const ConfigFileRef& file,
            void (Collector::*per_line)(std::string_view, const std::string&)) {
    const auto path = text_path(root, file.path);
    if (!path) return;  // masked
    std::string why;
    const auto lines = lines_of(*path, why);
    if (!lines) {
      if (why != std::strerror(ENOENT) || file.name != "sysctl.conf")
        out_.unread.push_back(printable(fmt::format("{}: {}", file.box_path, why)));
      return;
    }
    int n = 0;
    for (const std::string& raw : *lines) {
      ++n;
      const std::string_view line = trim(raw);
      if (line.empty() || line[0] == '#' || line[0] == ';') continue;
      (this->*per_line)(line, fmt::format("{}:{}", file.box_path, n));
    }
  }
  PersistedKnobs& out() { return out_; }

 private:
  void add_named(const NamedKnobs& named, std::string_view what, std::string_view value,
                 const std::string& source) {
    for (const std::string& knob : named.knobs) add(knob, value, source);
    if (named.unrecognised)
      out_.unrecognised.push_back(printable(fmt::format("{} {}", source, what)));
  }
  void add(const std::string& knob, std::string_view value, const std::string& source) {
    if (out_.settings.size() == kMaxSettings) {
      ++out_.left_out;
      return;
    }
    out_.settings.push_back({printable(knob), printable(value), printable(source)});
  }
  PersistedKnobs out_;
};

// `text` with the separators of persisted_knobs_text written as escapes.
std::string escape_separators(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == ';' || c == '(' || c == ')')
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
    else
      out += c;
  }
  return out;
}

}  // namespace

PersistedKnobs persisted_knobs(const procfs::Root& root) {
  Collector c;
  std::size_t left_out = 0;
  std::vector<std::string> too_big;
  for (const auto& f : config_files(root, "tmpfiles.d", left_out, too_big))
    c.read(root, f, &Collector::tmpfiles_line);
  for (const auto& f : config_files(root, "sysctl.d", left_out, too_big))
    c.read(root, f, &Collector::sysctl_line);
  for (const auto& dir : too_big) c.out().unread.push_back(printable(dir));
  c.read(root, {"sysctl.conf", "/etc/sysctl.conf", root.path("etc/sysctl.conf")},
         &Collector::sysctl_line);
  c.out().left_out += left_out;
  return std::move(c.out());
}

std::string persisted_knobs_text(const PersistedKnobs& knobs) {
  std::vector<std::string> parts;
  for (const auto& k : knobs.settings) {
    parts.push_back(fmt::format("{}={} ({})", escape_separators(k.knob), escape_separators(k.value),
                                escape_separators(k.source)));
  }
  if (knobs.left_out > 0) parts.push_back(fmt::format("+{} more", knobs.left_out));
  for (const auto& u : knobs.unrecognised) parts.push_back("unrecognised " + escape_separators(u));
  for (const auto& u : knobs.unread) parts.push_back("unread " + escape_separators(u));
  return parts.empty() ? "none" : fmt::format("{}", fmt::join(parts, "; "));
}

}  // namespace schedrig::knobs
