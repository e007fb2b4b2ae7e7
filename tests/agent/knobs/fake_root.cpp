#include "tests/agent/knobs/fake_root.h"

#include <signal.h>
#include <spawn.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

extern char** environ;

namespace schedrig::knobs::testing {

namespace fs = std::filesystem;

FakeRoot::FakeRoot() {
  put("proc/sys/kernel/sched_autogroup_enabled", "1\n");
  put("proc/sys/kernel/numa_balancing", "1\n");
  put("proc/sys/kernel/sched_rt_runtime_us", "950000\n");
  put("sys/kernel/debug/sched/migration_cost_ns", "500000\n");
  put("sys/kernel/debug/sched/base_slice_ns", "3000000\n");
  set_boot_id("11111111-2222-4333-8444-555555555555");
}

FakeRoot::~FakeRoot() {
  if (fuse_pid_ > 0) {
    ::umount2(mountpoint_.c_str(), MNT_DETACH);
    ::kill(fuse_pid_, SIGTERM);
    int st = 0;
    ::waitpid(fuse_pid_, &st, 0);
  }
}

void FakeRoot::put(const std::string& rel, const std::string& text) const {
  fs::path p = dir_.file(rel);
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::trunc) << text;
}

std::string FakeRoot::get(const std::string& rel) const {
  std::ifstream in(dir_.file(rel));
  std::stringstream s;
  s << in.rdbuf();
  std::string out = s.str();
  while (!out.empty() && std::isspace(static_cast<unsigned char>(out.back()))) out.pop_back();
  return out;
}

static bool is_fuse(const std::string& path) {
  struct statfs sf {};
  return ::statfs(path.c_str(), &sf) == 0 && sf.f_type == 0x65735546;  // FUSE_SUPER_MAGIC
}

bool FakeRoot::mount_features(const std::string& features, const std::string& mode) {
  if (::access("/dev/fuse", R_OK | W_OK) != 0) return false;
  mountpoint_ = dir_.file("sys/kernel/debug/sched/features");
  put("sys/kernel/debug/sched/features", "");
  std::string bin = std::string(SCHEDRIG_BIN_DIR) + "/../tests/fake_sched_features";
  std::vector<std::string> env_store = {"FAKE_FEATURES=" + features, "FAKE_MODE=" + mode,
                                        "FAKE_WRITES=" + dir_.file("feature-writes")};
  std::vector<char*> envp;
  for (auto& e : env_store) envp.push_back(e.data());
  envp.push_back(nullptr);
  char* argv[] = {bin.data(), mountpoint_.data(), nullptr};
  if (::posix_spawn(&fuse_pid_, bin.c_str(), nullptr, nullptr, argv, envp.data()) != 0)
    return false;
  for (int i = 0; i < 200 && !is_fuse(mountpoint_); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return is_fuse(mountpoint_);
}

long FakeRoot::feature_writes() const {
  std::string s = get("feature-writes");
  return s.empty() ? 0 : std::stol(s);
}

}  // namespace schedrig::knobs::testing
