#include "host/lab/agent_process.h"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

extern char** environ;

namespace schedrig::lab {

namespace fs = std::filesystem;

static bool executable(const std::string& path) { return ::access(path.c_str(), X_OK) == 0; }

std::string find_agent_binary(const std::string& flag) {
  if (!flag.empty()) {
    if (executable(flag)) return flag;
    throw std::runtime_error(fmt::format("--agent {}: not an executable file", flag));
  }
  if (const char* env = std::getenv("SCHEDRIG_AGENT"); env && *env) {
    if (executable(env)) return env;
    throw std::runtime_error(fmt::format("$SCHEDRIG_AGENT={}: not an executable file", env));
  }
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  fs::path beside = self.parent_path() / "schedrig-agent";
  if (!ec && executable(beside)) return beside;
  throw std::runtime_error(
      fmt::format("cannot find schedrig-agent: no --agent, no $SCHEDRIG_AGENT, and not at {}",
                  beside.string()));
}

AgentProcess::AgentProcess(const std::string& path, const std::vector<std::string>& args) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(path.c_str()));
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  int err = ::posix_spawn(&pid_, path.c_str(), nullptr, nullptr, argv.data(), environ);
  if (err != 0)
    throw std::runtime_error(fmt::format("cannot start {}: {}", path, std::strerror(err)));
}

AgentProcess::~AgentProcess() { stop(std::chrono::milliseconds(0)); }

std::optional<int> AgentProcess::poll() {
  if (status_ || pid_ <= 0) return status_;
  int st = 0;
  if (::waitpid(pid_, &st, WNOHANG) == pid_) status_ = st;
  return status_;
}

static bool wait_for(AgentProcess& p, std::chrono::milliseconds d) {
  auto deadline = std::chrono::steady_clock::now() + d;
  do {
    if (p.poll()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  } while (std::chrono::steady_clock::now() < deadline);
  return p.poll().has_value();
}

int AgentProcess::stop(std::chrono::milliseconds grace) {
  if (pid_ <= 0) return 0;
  if (!wait_for(*this, grace)) {
    ::kill(pid_, SIGTERM);
    if (!wait_for(*this, std::chrono::seconds(5))) {
      ::kill(pid_, SIGKILL);
      int st = 0;
      while (::waitpid(pid_, &st, 0) < 0 && errno == EINTR) {
      }
      status_ = st;
    }
  }
  return *status_;
}

std::string describe_status(int status) {
  if (WIFEXITED(status)) return fmt::format("exited with {}", WEXITSTATUS(status));
  if (WIFSIGNALED(status))
    return fmt::format("killed by signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)));
  return fmt::format("ended with status {}", status);
}

}  // namespace schedrig::lab
