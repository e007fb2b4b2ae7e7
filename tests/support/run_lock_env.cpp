// Linked into every test executable (tests/CMakeLists.txt schedrig_test):
// each test process gets its own run lock (common/run_lock.h) through
// SCHEDRIG_RUN_LOCK, inherited by the agents it starts. Without it, agents
// of tests run in parallel by ctest would queue at /run/schedrig/run.lock
// behind each other's runs, and behind a real run on this box. A test that
// means two runs to share a lock passes --run-lock (two_runs_test), and an
// environment that sets SCHEDRIG_RUN_LOCK keeps its own.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

namespace {

class OwnRunLock {
 public:
  OwnRunLock() : owner_(::getpid()) {
    if (const char* set = std::getenv("SCHEDRIG_RUN_LOCK"); set && *set) return;
    char dir[] = "/tmp/schedrig-test-run-lock-XXXXXX";
    if (::mkdtemp(dir) == nullptr) return;
    dir_ = dir;
    ::setenv("SCHEDRIG_RUN_LOCK", (dir_ + "/run.lock").c_str(), 1);
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
