#include "agent/knobs/knob_paths.h"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

namespace schedrig::knobs {

namespace fs = std::filesystem;

namespace {

bool inside(const fs::path& path, const fs::path& dir) {
  auto p = path.lexically_normal();
  auto d = dir.lexically_normal();
  auto [end, _] = std::mismatch(d.begin(), d.end(), p.begin(), p.end());
  return end == d.end();
}

// Whether `path` (ROOT/BASE/...), once every symlink is resolved, lies in
// canonical(ROOT)/BASE: BASE itself is not resolved, so a link anywhere under
// the root (ROOT/proc -> /proc) that leaves it is caught. On the live
// machine that is /proc/sys or /sys/kernel/debug, real directories there.
// A path that cannot be resolved (EACCES on debugfs as a user) passes here;
// opening it then fails with that errno.
bool resolves_inside(const procfs::Root& root, const fs::path& path, const std::string& base) {
  std::error_code ec;
  const fs::path real_root = fs::weakly_canonical(root.dir(), ec);
  if (ec) return true;
  const fs::path real = fs::weakly_canonical(path, ec);
  return ec || inside(real, real_root / base);
}

}  // namespace

std::string features_path(const procfs::Root& root) {
  const std::string modern = root.path("sys/kernel/debug/sched/features").string();
  const std::string old = root.path("sys/kernel/debug/sched_features").string();
  std::error_code ec;
  std::string path = modern;
  if (!fs::exists(modern, ec) && fs::exists(old, ec)) path = old;
  if (!resolves_inside(root, path, "sys/kernel/debug")) {
    throw KnobError(fmt::format("sched features: {} resolves outside {}; refused", path,
                                root.path("sys/kernel/debug").string()));
  }
  return path;
}

std::string knob_path(const procfs::Root& root, const KnobSetting& s) {
  if (s.kind == KnobKind::kFeature) return features_path(root);
  std::string rel = s.name;
  if (s.kind == KnobKind::kSysctl) std::replace(rel.begin(), rel.end(), '.', '/');
  const std::string rel_base = s.kind == KnobKind::kSysctl ? "proc/sys" : "sys/kernel/debug";
  const fs::path base = root.path(rel_base);
  const fs::path path = base / rel;
  if (rel.find("..") != std::string::npos || !inside(path, base) ||
      !resolves_inside(root, path, rel_base)) {
    throw KnobError(
        fmt::format("{}: {} resolves outside {}; refused", s.name, path.string(), base.string()));
  }
  return path.string();
}

std::string lock_path(const procfs::Root& root) {
  return (root.path(kLockDir) / kLockName).string();
}

}  // namespace schedrig::knobs
