#include "host/lab/agent_process.h"

#include <fcntl.h>
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

namespace {

// The read end of a pipe (O_CLOEXEC) already holding `secret`, its write end
// closed; the secret fits the pipe's buffer, so writing cannot block.
int secret_pipe(const std::string& secret) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    throw std::runtime_error(fmt::format("pipe for the agent's token: {}", std::strerror(errno)));
  std::size_t done = 0;
  while (done < secret.size()) {
    const ssize_t n = ::write(fds[1], secret.data() + done, secret.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fds[0]);
      ::close(fds[1]);
      throw std::runtime_error(fmt::format("pipe for the agent's token: {}", std::strerror(err)));
    }
    done += static_cast<std::size_t>(n);
  }
  ::close(fds[1]);
  return fds[0];
}

// posix_spawn file actions, destroyed on every path out.
struct FileActions {
  posix_spawn_file_actions_t actions;
  FileActions() { posix_spawn_file_actions_init(&actions); }
  ~FileActions() { posix_spawn_file_actions_destroy(&actions); }
};

}  // namespace

AgentProcess::AgentProcess(const std::string& path, const std::vector<std::string>& args,
                           const std::optional<SecretFd>& secret) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(path.c_str()));
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  FileActions fa;
  const int secret_fd = secret ? secret_pipe(secret->secret) : -1;
  // dup2 clears O_CLOEXEC on the child's copy (glibc also when the numbers match).
  if (secret) posix_spawn_file_actions_adddup2(&fa.actions, secret_fd, secret->child_fd);
  int err = ::posix_spawn(&pid_, path.c_str(), &fa.actions, nullptr, argv.data(), environ);
  if (secret_fd >= 0) ::close(secret_fd);
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

}  // namespace schedrig::lab
