#include "bench/collector_load/serve_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include <fmt/format.h>

namespace schedrig::bench {

namespace {

std::atomic<pid_t> g_live_child{-1};

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string tail(const std::string& text, std::size_t max = 2000) {
  return text.size() <= max ? text : "..." + text.substr(text.size() - max);
}

// In the child: output to `log`, die with the parent, exec serve. Never returns.
[[noreturn]] void exec_serve(const ServeConfig& c, const std::vector<std::string>& args) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  const int fd = ::open(c.log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd >= 0) {
    ::dup2(fd, STDOUT_FILENO);
    ::dup2(fd, STDERR_FILENO);
  }
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  ::execv(c.schedrig.c_str(), argv.data());
  const std::string why = fmt::format("exec {}: {}\n", c.schedrig, std::strerror(errno));
  [[maybe_unused]] auto n = ::write(STDERR_FILENO, why.data(), why.size());
  ::_exit(127);
}

}  // namespace

void kill_live_serve_child() {
  const pid_t pid = g_live_child.load();
  if (pid > 0) ::kill(pid, SIGKILL);
}

ServeProcess::ServeProcess(const ServeConfig& config, std::chrono::milliseconds timeout)
    : config_(config) {
  const std::vector<std::string> args = {
      config.schedrig, "serve",       "--listen",   "127.0.0.1:0",   "--db",      config.db,
      "--tokens",      config.tokens, "--tls-cert", config.tls_cert, "--tls-key", config.tls_key};
  pid_ = ::fork();
  if (pid_ < 0) throw std::runtime_error(fmt::format("fork: {}", std::strerror(errno)));
  if (pid_ == 0) exec_serve(config_, args);
  g_live_child = pid_;
  try {
    wait_listening(timeout);
  } catch (...) {
    stop();
    throw;
  }
}

ServeProcess::~ServeProcess() { stop(); }

std::string ServeProcess::agent_url() const {
  return fmt::format("wss://127.0.0.1:{}/agent", port_);
}

void ServeProcess::wait_listening(std::chrono::milliseconds timeout) {
  static const std::regex serving(R"(serving on 127\.0\.0\.1:(\d+))");
  const auto give_up = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < give_up) {
    const std::string log = read_file(config_.log);
    std::smatch m;
    if (std::regex_search(log, m, serving)) {
      port_ = static_cast<unsigned short>(std::stoul(m[1].str()));
      return;
    }
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      g_live_child = -1;
      throw std::runtime_error("schedrig serve exited before listening:\n" + tail(log));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  throw std::runtime_error("schedrig serve did not listen in time:\n" +
                           tail(read_file(config_.log)));
}

void ServeProcess::stop() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGTERM);
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  int status = 0;
  while (::waitpid(pid_, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() >= give_up) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  pid_ = -1;
  g_live_child = -1;
}

}  // namespace schedrig::bench
