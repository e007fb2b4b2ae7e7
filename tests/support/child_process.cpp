#include "tests/support/child_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <iterator>
#include <stdexcept>
#include <thread>

namespace schedrig::testing {

ChildProcess::ChildProcess(std::vector<std::string> argv, std::string log_path)
    : log_path_(std::move(log_path)) {
  if (argv.empty()) throw std::runtime_error("ChildProcess: no argv");
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  const int log = ::open(log_path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (log < 0) throw std::runtime_error("ChildProcess: cannot open " + log_path_);
  const pid_t parent = ::getpid();
  pid_ = ::fork();
  if (pid_ == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);  // the test is already gone
    ::dup2(log, 1);
    ::dup2(log, 2);
    const int null = ::open("/dev/null", O_RDONLY);
    if (null >= 0) ::dup2(null, 0);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  ::close(log);
  if (pid_ < 0) throw std::runtime_error("ChildProcess: fork failed");
}

ChildProcess::~ChildProcess() { stop(); }

std::string ChildProcess::log() const {
  std::ifstream in(log_path_);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool ChildProcess::wait_for_log(const std::string& text, std::chrono::milliseconds limit) const {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (log().find(text) == std::string::npos) {
    if (std::chrono::steady_clock::now() >= until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

std::optional<int> ChildProcess::wait_for_exit(std::chrono::milliseconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (!exit_code_ && pid_ > 0) {
    int status = 0;
    const pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    } else if (r < 0) {
      exit_code_ = -1;
    } else if (std::chrono::steady_clock::now() >= until) {
      break;
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  return exit_code_;
}

int ChildProcess::stop(std::chrono::milliseconds grace) {
  if (pid_ <= 0) return -1;
  if (!wait_for_exit(std::chrono::milliseconds(0))) {
    ::kill(pid_, SIGTERM);
    if (!wait_for_exit(grace)) {
      ::kill(pid_, SIGKILL);
      wait_for_exit(std::chrono::seconds(10));
    }
  }
  return exit_code_.value_or(-1);
}

}  // namespace schedrig::testing
