#include "agent/tools/tool_process.h"

#include <fcntl.h>
#include <linux/close_range.h>
#include <poll.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>

#include <fmt/format.h>

#include "agent/tools/tool_error.h"
#include "agent/tools/tool_tasks.h"
#include "common/unique_fd.h"

namespace schedrig::tools {
namespace {

using Clock = std::chrono::steady_clock;

// Steps of the child before exec, reported through the status pipe.
enum Step : int { kStepChdir = 1, kStepAffinity, kStepStdio, kStepExec };

const char* step_name(int step) {
  switch (step) {
    case kStepChdir:
      return "cannot enter its working directory";
    case kStepAffinity:
      return "cannot set its affinity to the placement";
    case kStepStdio:
      return "cannot set up its output pipes";
    default:
      return "cannot exec";
  }
}

struct Pipe {
  UniqueFd read_end;
  UniqueFd write_end;
};

Pipe make_pipe(const std::string& tool) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) {
    throw ToolRunError(fmt::format("{}: cannot start: pipe: {}", tool, std::strerror(errno)));
  }
  return {UniqueFd(fds[0]), UniqueFd(fds[1])};
}

// What the child needs, built before fork (no allocation after it).
struct ChildImage {
  std::vector<std::string> strings;
  std::vector<char*> argv;
  std::vector<char*> envp;
  cpu_set_t affinity{};
};

ChildImage child_image(const ToolLaunch& l) {
  ChildImage img;
  img.strings.push_back(l.binary);
  for (const auto& a : l.argv) img.strings.push_back(a);
  const std::size_t n_args = img.strings.size();
  img.strings.push_back("PATH=/usr/sbin:/usr/bin:/sbin:/bin");
  img.strings.push_back("LC_ALL=C");
  img.strings.push_back("HOME=" + l.work_dir);
  img.strings.push_back("TMPDIR=" + l.work_dir);
  for (std::size_t i = 0; i < img.strings.size(); ++i) {
    (i < n_args ? img.argv : img.envp).push_back(img.strings[i].data());
  }
  img.argv.push_back(nullptr);
  img.envp.push_back(nullptr);
  CPU_ZERO(&img.affinity);
  for (int c : l.cpus) {
    if (c < 0 || c >= CPU_SETSIZE) {
      throw ToolRunError(fmt::format("{}: PU {} is outside [0, {})", l.tool, c, CPU_SETSIZE));
    }
    CPU_SET(c, &img.affinity);
  }
  return img;
}

// Marks every fd above 2 close-on-exec, whatever the agent inherited or
// opened without O_CLOEXEC (a collector's listening socket, a caller's fd):
// the tool gets stdin, stdout and stderr only. The status pipe stays open
// until the exec itself. Async-signal-safe.
void close_on_exec_from_3() {
  if (::syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC) == 0) return;
  for (int fd = 3; fd < 65536; ++fd) ::fcntl(fd, F_SETFD, FD_CLOEXEC);  // kernels before 5.11
}

// The child between fork and exec: async-signal-safe calls only.
[[noreturn]] void exec_child(const ChildImage& img, const char* work_dir, pid_t parent, int out_fd,
                             int err_fd, int status_fd) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(127);
  ::setpgid(0, 0);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  for (int sig : {SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGCHLD}) ::signal(sig, SIG_DFL);
  int step = kStepChdir;
  if (::chdir(work_dir) == 0) {
    step = kStepAffinity;
    if (::sched_setaffinity(0, sizeof img.affinity, &img.affinity) == 0) {
      step = kStepStdio;
      const int null_fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
      if (null_fd >= 0 && ::dup2(null_fd, 0) == 0 && ::dup2(out_fd, 1) == 1 &&
          ::dup2(err_fd, 2) == 2) {
        close_on_exec_from_3();
        step = kStepExec;
        ::execve(img.argv[0], img.argv.data(), img.envp.data());
      }
    }
  }
  const std::array<int, 2> report{step, errno};
  [[maybe_unused]] ssize_t w = ::write(status_fd, report.data(), sizeof report);
  ::_exit(127);
}

// Reads the child's status pipe: returns once it exec'd (EOF), throws when
// it reported a failed step.
void await_exec(const ToolLaunch& l, pid_t pid, int status_fd) {
  std::array<int, 2> report{};
  ssize_t n;
  do {
    n = ::read(status_fd, report.data(), sizeof report);
  } while (n < 0 && errno == EINTR);
  if (n == static_cast<ssize_t>(sizeof report)) {
    while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
    throw ToolRunError(fmt::format("{}: {} {}: {}", l.tool, step_name(report[0]), l.binary,
                                   std::strerror(report[1])));
  }
}

// Drains both output pipes until EOF, the leader's exit or `stop`.
class Capture {
 public:
  Capture(const ToolLaunch& l, pid_t pid, UniqueFd out, UniqueFd err)
      : l_(l), pid_(pid), fds_{std::move(out), std::move(err)} {}

  ToolExit run() {
    const auto t0 = Clock::now();
    while (!done()) {
      if (!stopped_ && l_.stop && l_.stop->load()) kill_group(), stopped_ = true;
      if (!out_.timed_out && l_.timeout.count() > 0 && Clock::now() - t0 > l_.timeout) {
        kill_group();
        out_.timed_out = true;
      }
      poll_once(50);
    }
    out_.wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
    kill_group();  // whatever is left, before the leader's pid (the group's id) is freed
    reap();
    await_group_gone();
    out_.stopped = stopped_;
    return std::move(out_);
  }

 private:
  bool open(int i) const { return fds_[i].get() >= 0; }

  // The leader has exited (not reaped: its pid keeps the group's id ours).
  bool leader_exited() {
    siginfo_t info{};
    if (::waitid(P_PID, pid_, &info, WEXITED | WNOHANG | WNOWAIT) != 0) return errno == ECHILD;
    return info.si_pid == pid_;
  }

  bool done() {
    if (!exited_ && leader_exited()) {
      exited_ = true;
      kill_group();  // what the tool left behind; a daemonized child would hold the pipes
      drain_until_ = Clock::now() + std::chrono::seconds(1);
    }
    if (!open(0) && !open(1)) return exited_;
    return exited_ && Clock::now() > drain_until_;
  }

  void kill_group() const { ::kill(-pid_, SIGKILL); }

  // SIGKILL takes effect asynchronously: wait (at most 2 s) until nothing of
  // the group runs, so nothing of a run outlives it (or the agent).
  void await_group_gone() const {
    const auto until = Clock::now() + std::chrono::seconds(2);
    while (process_group_alive(pid_) && Clock::now() < until) ::usleep(1000);
  }

  void poll_once(int timeout_ms) {
    std::array<pollfd, 2> p{};
    for (int i = 0; i < 2; ++i) p[i] = {fds_[i].get(), POLLIN, 0};
    if (!open(0) && !open(1)) {
      ::usleep(static_cast<useconds_t>(timeout_ms) * 1000);
      return;
    }
    if (::poll(p.data(), p.size(), timeout_ms) <= 0) return;
    for (int i = 0; i < 2; ++i) {
      if (open(i) && (p[i].revents & (POLLIN | POLLHUP | POLLERR))) read_some(i);
    }
  }

  void read_some(int i) {
    std::array<char, 65536> buf;
    const ssize_t n = ::read(fds_[i].get(), buf.data(), buf.size());
    if (n < 0 && errno == EINTR) return;
    if (n <= 0) {
      fds_[i].reset();
      return;
    }
    std::string& text = i == 0 ? out_.stdout_text : out_.stderr_text;
    const std::size_t room = l_.max_output_bytes - std::min(l_.max_output_bytes, text.size());
    if (static_cast<std::size_t>(n) > room) out_.truncated = true;
    text.append(buf.data(), std::min(room, static_cast<std::size_t>(n)));
  }

  void reap() {
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status)) out_.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) out_.signal = WTERMSIG(status);
  }

  const ToolLaunch& l_;
  pid_t pid_;
  std::array<UniqueFd, 2> fds_;
  ToolExit out_;
  bool exited_ = false;
  bool stopped_ = false;
  Clock::time_point drain_until_{};
};

// While a tool runs the agent is a child subreaper (PR_SET_CHILD_SUBREAPER):
// whatever the tool started that left its group (setsid) and outlived its
// parent is adopted by the agent instead of init. After the run it kills
// and reaps every adopted child, round by round (a killed child's own
// children are adopted in turn), for at most 5 s. Runs never overlap and nothing else in
// the agent forks during one, so every child left then is the tool's.
class AdoptOrphans {
 public:
  AdoptOrphans() {
    int was = 0;
    ::prctl(PR_GET_CHILD_SUBREAPER, &was);
    was_ = was != 0;
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  }
  ~AdoptOrphans() {
    const pid_t self = ::getpid();
    const auto until = Clock::now() + std::chrono::seconds(5);
    while (Clock::now() < until) {  // a chain of any depth, one generation a round
      const std::vector<pid_t> adopted = children_of(self);
      if (adopted.empty()) break;
      for (pid_t pid : adopted) ::kill(pid, SIGKILL);
      for (pid_t pid : adopted) {
        while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
        }
      }
    }
    if (!was_) ::prctl(PR_SET_CHILD_SUBREAPER, 0);
  }
  AdoptOrphans(const AdoptOrphans&) = delete;
  AdoptOrphans& operator=(const AdoptOrphans&) = delete;

 private:
  bool was_ = false;
};

}  // namespace

ToolExit run_tool_process(const ToolLaunch& l) {
  const ChildImage img = child_image(l);
  Pipe out = make_pipe(l.tool), err = make_pipe(l.tool), status = make_pipe(l.tool);
  const AdoptOrphans adopt;  // declared before the fork: its clean-up runs last
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    throw ToolRunError(fmt::format("{}: cannot start: fork: {}", l.tool, std::strerror(errno)));
  }
  if (pid == 0) {
    exec_child(img, l.work_dir.c_str(), parent, out.write_end.get(), err.write_end.get(),
               status.write_end.get());
  }
  ::setpgid(pid, pid);  // also here, so the group exists before we may kill it
  out.write_end.reset();
  err.write_end.reset();
  status.write_end.reset();
  await_exec(l, pid, status.read_end.get());
  if (l.started) l.started(pid);
  return Capture(l, pid, std::move(out.read_end), std::move(err.read_end)).run();
}

std::string describe_exit(const ToolExit& e) {
  if (e.stopped) return "stopped";
  if (e.timed_out) return "did not exit within its time limit (killed)";
  if (e.signal > 0) return fmt::format("killed by signal {} ({})", e.signal, strsignal(e.signal));
  return fmt::format("exited with status {}", e.exit_code);
}

}  // namespace schedrig::tools
