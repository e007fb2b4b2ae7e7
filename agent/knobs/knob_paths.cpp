#include "agent/knobs/knob_paths.h"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

namespace schedrig::knobs {

namespace fs = std::filesystem;

std::string features_path(const procfs::Root& root) {
  const std::string modern = root.path("sys/kernel/debug/sched/features").string();
  const std::string old = root.path("sys/kernel/debug/sched_features").string();
  std::error_code ec;
  if (!fs::exists(modern, ec) && fs::exists(old, ec)) return old;
  return modern;
}

static bool inside(const fs::path& path, const fs::path& dir) {
  auto p = path.lexically_normal();
  auto d = dir.lexically_normal();
  auto [end, _] = std::mismatch(d.begin(), d.end(), p.begin(), p.end());
  return end == d.end();
}

std::string knob_path(const procfs::Root& root, const KnobSetting& s) {
  if (s.kind == KnobKind::kFeature) return features_path(root);
  std::string rel = s.name;
  fs::path base;
  if (s.kind == KnobKind::kSysctl) {
    std::replace(rel.begin(), rel.end(), '.', '/');
    base = root.path("proc/sys");
  } else {
    base = root.path("sys/kernel/debug");
  }
  fs::path path = base / rel;
  std::error_code ec;
  fs::path real = fs::weakly_canonical(path, ec);
  fs::path real_base = fs::weakly_canonical(base, ec);
  if (rel.find("..") != std::string::npos || !inside(path, base) ||
      (!ec && !inside(real, real_base))) {
    throw KnobError(
        fmt::format("{}: {} resolves outside {}; refused", s.name, path.string(), base.string()));
  }
  return path.string();
}

std::string lock_path(const procfs::Root& root) {
  return root.path("run/lock/schedrig-knobs.lock").string();
}

}  // namespace schedrig::knobs
