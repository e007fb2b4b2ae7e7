// Test support: another process holding flock(2) on a file, as a second
// schedrig process would: a forked child that opens `path` (creating it),
// takes LOCK_EX, optionally writes `claim` into the file (what a lock file
// might claim: schedrig never believes it), and waits until killed.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include <gtest/gtest.h>

namespace schedrig::testing {

class FlockHolder {
 public:
  explicit FlockHolder(const std::string& path, const std::string& claim = "") {
    int ready[2];
    EXPECT_EQ(::pipe(ready), 0);
    pid_ = ::fork();
    if (pid_ == 0) {
      const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
      const bool held = fd >= 0 && ::flock(fd, LOCK_EX | LOCK_NB) == 0;
      if (held && !claim.empty()) (void)!::write(fd, claim.data(), claim.size());
      (void)!::write(ready[1], held ? "y" : "n", 1);
      ::pause();
      ::_exit(0);
    }
    char c = 0;
    EXPECT_EQ(::read(ready[0], &c, 1), 1);
    EXPECT_EQ(c, 'y') << "the child could not lock " << path;
    ::close(ready[0]);
    ::close(ready[1]);
  }
  ~FlockHolder() { kill(); }
  FlockHolder(const FlockHolder&) = delete;
  FlockHolder& operator=(const FlockHolder&) = delete;

  // SIGKILL and reap: the lock dies with the child, its file stays.
  void kill() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
};

}  // namespace schedrig::testing
