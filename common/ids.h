// Identity helpers (docs/architecture.md "Identity"): UUIDs, boot_id, host facts.
#pragma once

#include <string>

#include "common/procfs/root.h"

namespace schedrig {

// A random RFC 4122 version-4 UUID, lower-case hex with dashes
// ("xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx"). Seeded from std::random_device.
std::string make_uuid_v4();

// True when `s` has the shape of a UUID (8-4-4-4-12 hex digits).
bool is_uuid(const std::string& s);

// The kernel's boot id, the first line of ROOT/proc/sys/kernel/random/boot_id.
// Throws procfs::ReadError (common/procfs/read_error.h) naming the file and
// the errno when it cannot be read (ENODATA when it is empty).
std::string read_boot_id(const procfs::Root& root = procfs::Root::live());

// uname(2) nodename, e.g. "altra-01".
std::string host_name();

// uname(2) release, e.g. "6.18.44".
std::string kernel_release();

// The release of the kernel `root` stands for: uname(2)'s for the live
// machine; for a fake tree, the first line of ROOT/proc/sys/kernel/osrelease
// when the tree has that file (a simulated boot writes it: docs/nightly.md
// "The test hook"), else uname(2)'s. Throws procfs::ReadError when the file
// exists but cannot be read or is empty.
std::string kernel_release(const procfs::Root& root);

// The boot id `root` stands for: read_boot_id(root) for the live machine
// and for a fake tree that has the file, else the live machine's.
std::string current_boot_id(const procfs::Root& root);

// Wall-clock time now, ns since the Unix epoch.
long long wall_clock_ns();

}  // namespace schedrig
