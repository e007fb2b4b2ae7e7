#include "agent/knobs/persisted_paths.h"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "agent/knobs/allowlist.h"

namespace schedrig::knobs {
namespace {

constexpr std::string_view kDebugfs = "/sys/kernel/debug/";
constexpr std::string_view kProcSys = "/proc/sys/";

bool is_glob(std::string_view s) { return s.find_first_of("*?[") != std::string_view::npos; }

std::string dotted(std::string_view path_under_proc_sys) {
  std::string name(path_under_proc_sys);
  std::replace(name.begin(), name.end(), '/', '.');
  return name;
}

bool allowlisted_sysctl(const std::string& name) {
  return find_spec(sysctl_allowlist(), name) != nullptr;
}

// A scheduler path schedrig should know of when it names nothing it knows.
bool sched_path(std::string_view path) {
  return path.starts_with("/sys/kernel/debug/sched") ||
         path.starts_with("/proc/sys/kernel/sched") ||
         path.starts_with("/proc/sys/kernel/numa_balancing");
}

bool sched_key(std::string_view key) {
  return key.starts_with("kernel.sched") || key.starts_with("kernel.numa_balancing");
}

// Every knob path schedrig knows, with its knob name.
std::vector<std::pair<std::string, std::string>> known_paths() {
  std::vector<std::pair<std::string, std::string>> out = {
      {"/sys/kernel/debug/sched/features", "sched_features"},
      {"/sys/kernel/debug/sched_features", "sched_features"}};
  for (const auto& t : debugfs_allowlist())
    out.emplace_back(std::string(kDebugfs) + t.name, t.name);
  for (const auto& s : sysctl_allowlist()) {
    std::string path = s.name;
    std::replace(path.begin(), path.end(), '.', '/');
    out.emplace_back(std::string(kProcSys) + path, s.name);
  }
  return out;
}

int hex_digit(char c) {
  if (std::isdigit(static_cast<unsigned char>(c))) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// `s` with the C escapes tmpfiles accepts in a quoted field undone.
std::string unescape(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 == s.size()) {
      out += s[i];
      continue;
    }
    const char e = s[++i];
    if (e == 'x' && i + 2 < s.size() && hex_digit(s[i + 1]) >= 0 && hex_digit(s[i + 2]) >= 0) {
      out += static_cast<char>(hex_digit(s[i + 1]) * 16 + hex_digit(s[i + 2]));
      i += 2;
    } else if (e == 'n') {
      out += '\n';
    } else if (e == 't') {
      out += '\t';
    } else {
      out += e;  // \\ \" \' and anything else as itself
    }
  }
  return out;
}

}  // namespace

std::string tmpfiles_path(std::string_view field) {
  std::string path;
  if (field.size() >= 2 && (field.front() == '"' || field.front() == '\'') &&
      field.back() == field.front()) {
    path = unescape(field.substr(1, field.size() - 2));
  } else {
    path = unescape(field);
  }
  std::string normal = std::filesystem::path(path).lexically_normal().string();
  if (normal.size() > 1 && normal.back() == '/') normal.pop_back();
  return normal;
}

NamedKnobs knobs_of_tmpfiles_path(const std::string& path) {
  NamedKnobs named;
  if (is_glob(path)) {
    for (const auto& [known, knob] : known_paths())
      if (::fnmatch(path.c_str(), known.c_str(), FNM_PATHNAME) == 0) named.knobs.push_back(knob);
  } else if (path == "/sys/kernel/debug/sched/features" ||
             path == "/sys/kernel/debug/sched_features") {
    named.knobs.push_back("sched_features");
  } else if (path.starts_with("/sys/kernel/debug/sched/")) {
    named.knobs.push_back(path.substr(kDebugfs.size()));
  } else if (path.starts_with(kProcSys) &&
             allowlisted_sysctl(dotted(path.substr(kProcSys.size())))) {
    named.knobs.push_back(dotted(path.substr(kProcSys.size())));
  }
  named.unrecognised = named.knobs.empty() && sched_path(path);
  return named;
}

NamedKnobs knobs_of_sysctl_key(std::string_view raw) {
  std::string key = dotted(raw);
  if (!key.empty() && key[0] == '-') key.erase(0, 1);
  NamedKnobs named;
  if (is_glob(key)) {
    for (const auto& s : sysctl_allowlist())
      if (::fnmatch(key.c_str(), s.name, 0) == 0) named.knobs.push_back(s.name);
  } else if (allowlisted_sysctl(key)) {
    named.knobs.push_back(key);
  }
  named.unrecognised = named.knobs.empty() && sched_key(key);
  return named;
}

}  // namespace schedrig::knobs
