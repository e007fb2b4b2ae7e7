// Linked into every test executable (tests/CMakeLists.txt schedrig_test):
// each test process gets its own run lock (common/run_lock.h) through
// SCHEDRIG_RUN_LOCK, inherited by the agents it starts, and its own default
// state dir (SCHEDRIG_STATE_DIR, common/state_dir.h), so no test run as
// root leaves a journal, spool or store in this machine's /var/lib/schedrig
// (`lab` starts its agent on the default state dir). Without it, agents
// of tests run in parallel by ctest would queue at /run/schedrig/run.lock
// behind each other's runs, and behind a real run on this box. A test that
// means two runs to share a lock passes --run-lock (two_runs_test), and an
// environment that sets SCHEDRIG_RUN_LOCK keeps its own.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace {

bool is_set(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0';
}

class OwnRunLock {
 public:
  OwnRunLock() : owner_(::getpid()) {
    const bool lock_set = is_set("SCHEDRIG_RUN_LOCK");
    const bool state_set = is_set("SCHEDRIG_STATE_DIR");
    if (lock_set && state_set) return;
    char dir[] = "/tmp/schedrig-test-run-lock-XXXXXX";
    if (::mkdtemp(dir) == nullptr) return;
    dir_ = dir;
    if (!lock_set) ::setenv("SCHEDRIG_RUN_LOCK", (dir_ + "/run.lock").c_str(), 1);
    if (!state_set) ::setenv("SCHEDRIG_STATE_DIR", (dir_ + "/state").c_str(), 1);
  }
  ~OwnRunLock() {
    std::error_code ec;
    if (!dir_.empty() && ::getpid() == owner_) std::filesystem::remove_all(dir_, ec);
  }
  OwnRunLock(const OwnRunLock&) = delete;
  OwnRunLock& operator=(const OwnRunLock&) = delete;

 private:
  pid_t owner_;
  std::string dir_;
};

const OwnRunLock own_run_lock;

}  // namespace
