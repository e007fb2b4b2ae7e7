// A fake knob root for tests (no root privileges or real kernel files
// touched): ROOT/proc/sys/kernel/* and ROOT/sys/kernel/debug/sched/* as
// plain single-value files (which is how sysctls and tunables behave), a
// fake boot_id, and optionally the sched features file served by the
// test-only FUSE filesystem fake_sched_features with the kernel's semantics.
#pragma once

#include <sys/types.h>

#include <string>

#include "common/procfs/root.h"
#include "tests/support/run_command.h"

namespace schedrig::knobs::testing {

class FakeRoot {
 public:
  FakeRoot();
  ~FakeRoot();
  // The fake tree as the knobs, sampler and runner take it.
  procfs::Root root() const { return procfs::Root::under(dir_.path()); }
  // Its directory.
  const std::string& dir() const { return dir_.path(); }
  std::string state_dir() const { return dir_.file("state"); }
  std::string path(const std::string& rel) const { return dir_.file(rel); }
  // Writes a plain file under the root (creating directories).
  void put(const std::string& rel, const std::string& text) const;
  // Reads a file under the root, trailing white space removed.
  std::string get(const std::string& rel) const;
  // Mounts the FUSE features file at sys/kernel/debug/sched/features.
  // `mode`: normal | ignore | eperm. Returns false (and the test should skip)
  // when FUSE cannot be used here.
  bool mount_features(const std::string& features, const std::string& mode = "normal");
  // write(2) calls the FUSE file accepted.
  long feature_writes() const;
  void set_boot_id(const std::string& id) const {
    put("proc/sys/kernel/random/boot_id", id + "\n");
  }

 private:
  schedrig::testing::TempDir dir_;
  pid_t fuse_pid_ = -1;
  std::string mountpoint_;
};

}  // namespace schedrig::knobs::testing
