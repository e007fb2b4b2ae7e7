// Which knobs a boot-time setting names (agent/knobs/persisted_knobs.h): a
// tmpfiles.d `w` path or a sysctl.d key, read as systemd reads them
// (tmpfiles.d(5): a path may be quoted, with C escapes, and a glob;
// sysctl.d(5): a key may use '/' for '.', a leading '-', and a glob).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace schedrig::knobs {

// What one path or key names.
struct NamedKnobs {
  std::vector<std::string>
      knobs;  // "sched_features", "sched/base_slice_ns", "kernel.numa_balancing"
  // A scheduler path or key (under /sys/kernel/debug/sched, /proc/sys/kernel/sched*,
  // kernel.numa_balancing*) that names no knob schedrig knows: it is still
  // reported, never dropped.
  bool unrecognised = false;
};

// The path field of a tmpfiles.d line, unquoted and unescaped ("\x20",
// "\\", "\""), then lexically normalised ("//" and "." collapsed).
std::string tmpfiles_path(std::string_view field);

// The knobs the tmpfiles.d `w` path `path` (from tmpfiles_path) writes: the
// sched features file, a debugfs sched tunable, an allowlisted sysctl under
// /proc/sys; a glob (* ? [) names every such knob it matches (fnmatch(3)
// with FNM_PATHNAME).
NamedKnobs knobs_of_tmpfiles_path(const std::string& path);

// The allowlisted sysctls the sysctl.d key `key` sets ('/' read as '.', a
// leading '-' dropped, a glob matched against the allowlist).
NamedKnobs knobs_of_sysctl_key(std::string_view key);

}  // namespace schedrig::knobs
