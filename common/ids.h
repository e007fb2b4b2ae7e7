// Identity helpers (DESIGN.md "Identity"): UUIDs, boot_id, host facts.
#pragma once

#include <string>

namespace schedrig {

// A random RFC 4122 version-4 UUID, lower-case hex with dashes
// ("xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx"). Seeded from std::random_device.
std::string make_uuid_v4();

// True when `s` has the shape of a UUID (8-4-4-4-12 hex digits).
bool is_uuid(const std::string& s);

// The kernel's boot id from ROOT/proc/sys/kernel/random/boot_id, trimmed.
// `root` is "" for the live machine. Throws std::runtime_error naming the
// file and errno when it cannot be read.
std::string read_boot_id(const std::string& root = "");

// uname(2) nodename, e.g. "altra-01".
std::string host_name();

// uname(2) release, e.g. "6.18.44".
std::string kernel_release();

// Wall-clock time now, ns since the Unix epoch.
long long wall_clock_ns();

}  // namespace schedrig
