// Who holds a flock(2) lock, as the kernel says (proc(5) /proc/locks):
// never what a lock file's bytes claim. The kernel keeps the pid of the
// process that took a FLOCK lock; for OFD locks (F_OFD_SETLK) it reports
// -1 in /proc/locks and in F_OFD_GETLK alike (fs/locks.c
// locks_translate_pid), which is why schedrig's locks are flock(2) locks.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string_view>

namespace schedrig {

// The pid of the FLOCK WRITE lock on inode `ino` of device `dev` in the text
// of /proc/locks ("1: FLOCK  ADVISORY  WRITE 4242 fe:00:10954943 0 EOF";
// blocked waiters, "1: -> FLOCK ...", are skipped); empty when none or the
// pid is not positive.
std::optional<pid_t> parse_flock_holder(std::string_view proc_locks, dev_t dev, ino_t ino);

// The holder of the flock(2) lock on the file open as `fd`, from the live
// /proc/locks (read at most 4 MiB); empty when unknown or not held.
std::optional<pid_t> flock_holder(int fd);

}  // namespace schedrig
