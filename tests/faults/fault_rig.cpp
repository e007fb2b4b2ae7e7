#include "tests/faults/fault_rig.h"

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <stdexcept>

#include <fmt/format.h>

namespace schedrig::testing {
namespace {

using namespace std::chrono_literals;

constexpr const char* kAutogroup = "agent/root/proc/sys/kernel/sched_autogroup_enabled";

// A loopback port nothing listens on now (bound to 0, then closed), so serve
// can be restarted on the same port and the agent's URL stays the same.
unsigned short free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) throw std::runtime_error("socket for a free port");
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    ::close(fd);
    throw std::runtime_error("no free loopback port");
  }
  ::close(fd);
  return ntohs(a.sin_port);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string tail(const std::string& s, std::size_t bytes) {
  return s.size() <= bytes ? s : "..." + s.substr(s.size() - bytes);
}

// `schedrig token new OPTS` into `tokens`; the token to `out` (0600).
void new_token(const std::string& opts, const std::string& tokens, const std::string& out) {
  // A subshell: run_command's own 2>&1 must not send the note into the file.
  const auto r =
      run_command(fmt::format("(umask 077; timeout 20 {} token new {} --tokens {} > {} "
                              "2>/dev/null)",
                              bin("schedrig"), opts, tokens, out));
  if (r.exit_code != 0) throw std::runtime_error("token new " + opts + ": " + r.output);
}

// The agent's fake root: the autogroup sysctl as a plain file holding 1,
// and /proc/stat as copied now (the sampler needs one; its counters stand
// still, so samples come at the plan's rate with zero deltas).
void make_fake_root(const std::filesystem::path& root) {
  std::filesystem::create_directories(root / "proc/sys/kernel");
  std::ofstream(root / "proc/sys/kernel/sched_autogroup_enabled") << "1\n";
  std::ofstream(root / "proc/stat") << read_file("/proc/stat");
}

}  // namespace

std::uint64_t fault_seed() {
  static const std::uint64_t seed = [] {
    const char* env = std::getenv("SCHEDRIG_FAULT_SEED");
    const std::uint64_t s = env && *env
                                ? std::stoull(env)
                                : static_cast<std::uint64_t>(
                                      std::chrono::system_clock::now().time_since_epoch().count());
    std::printf("faults: seed %llu (replay with SCHEDRIG_FAULT_SEED=%llu)\n",
                static_cast<unsigned long long>(s), static_cast<unsigned long long>(s));
    std::fflush(stdout);
    return s;
  }();
  return seed;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

FaultRig::FaultRig() : port_(free_port()), store_(dir_.file("serve.db")) {
  new_token("--agent box1", dir_.file("tokens"), dir_.file("box1.token"));
  new_token("--operator alice", dir_.file("tokens"), dir_.file("alice.token"));
  make_fake_root(dir_.file("agent/root"));
}

FaultRig::~FaultRig() {
  agent_.reset();  // SIGTERM (then SIGKILL) the agent, then serve
  serve_.reset();
}

bool FaultRig::start_serve(std::string* why) {
  serve_ = std::make_unique<ChildProcess>(
      std::vector<std::string>{bin("schedrig"), "serve", "--listen",
                               fmt::format("127.0.0.1:{}", port_), "--tokens", dir_.file("tokens"),
                               "--db", dir_.file("serve.db")},
      dir_.file(fmt::format("serve-{}.log", ++serve_starts_)));
  if (serve_->wait_for_log("serving on ", 15s)) return true;
  *why = serve_->log();
  return false;
}

void FaultRig::kill_serve() {
  if (!serve_) return;
  ::kill(serve_->pid(), SIGKILL);
  serve_->wait_for_exit(10s);
  serve_.reset();
}

void FaultRig::start_agent(unsigned short port) {
  agent_ = std::make_unique<ChildProcess>(
      std::vector<std::string>{bin("schedrig-agent"), "connect",
                               fmt::format("ws://127.0.0.1:{}/agent", port), "--id", "box1",
                               "--token-file", dir_.file("box1.token"), "--root",
                               dir_.file("agent/root"), "--state-dir", dir_.file("agent/state")},
      dir_.file(fmt::format("agent-{}.log", ++agent_starts_)));
}

void FaultRig::kill_agent() {
  if (!agent_) return;
  ::kill(agent_->pid(), SIGKILL);
  agent_->wait_for_exit(10s);
  agent_.reset();
}

std::string FaultRig::submit(const std::string& yaml, std::string* why) {
  const std::string plan = dir_.file(fmt::format("plan-{}.yaml", ++plans_));
  std::ofstream(plan) << yaml;
  const auto r = run_command(fmt::format(
      "timeout --foreground 30 {} run --server http://127.0.0.1:{} --token-file {} --agent box1 "
      "--plan {}",
      bin("schedrig"), port_, dir_.file("alice.token"), plan));
  std::smatch m;
  if (r.exit_code == 0 &&
      std::regex_search(r.output, m, std::regex("run ([0-9a-f-]{36}) on box1:")))
    return m[1];
  *why = fmt::format("schedrig run exited {}: {}", r.exit_code, r.output);
  return "";
}

std::unique_ptr<ChildProcess> FaultRig::watch(const std::string& run) const {
  return std::make_unique<ChildProcess>(
      std::vector<std::string>{bin("schedrig"), "watch", run, "--server",
                               fmt::format("http://127.0.0.1:{}", port_), "--token-file",
                               dir_.file("alice.token")},
      dir_.file("watch.log"));
}

std::string FaultRig::knob() const {
  std::string v = read_file(dir_.file(kAutogroup));
  while (!v.empty() && std::isspace(static_cast<unsigned char>(v.back()))) v.pop_back();
  return v;
}

std::string FaultRig::log_tails(std::size_t bytes) const {
  std::string out;
  for (int i = std::max(1, serve_starts_ - 1); i <= serve_starts_; ++i)
    out += fmt::format("--- serve-{}.log:\n{}\n", i,
                       tail(read_file(dir_.file(fmt::format("serve-{}.log", i))), bytes));
  for (int i = std::max(1, agent_starts_ - 1); i <= agent_starts_; ++i)
    out += fmt::format("--- agent-{}.log:\n{}\n", i,
                       tail(read_file(dir_.file(fmt::format("agent-{}.log", i))), bytes));
  return out;
}

}  // namespace schedrig::testing
