#include "agent/workloads/fork_storm.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <system_error>
#include <thread>

#include <fmt/format.h>

#include "agent/workloads/clock.h"
#include "agent/workloads/fork_creator.h"
#include "agent/workloads/futex.h"
#include "agent/workloads/shared_memory.h"

namespace schedrig::workloads {
namespace {

using namespace std::chrono_literals;
using namespace fork_internal;

std::size_t align_up(std::size_t v, std::size_t a) { return (v + a - 1) / a * a; }

cpu_set_t affinity_for(const ForkStormParams& p, unsigned creator) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (p.pin == PinMode::kPerCpu) {
    CPU_SET(p.cpus[creator % p.cpus.size()], &set);
  } else {
    for (int c : p.cpus) CPU_SET(c, &set);
  }
  return set;
}

// What a freshly forked creator does before it runs (or execs) the loop.
// Async-signal-safe only: the agent may have other threads when it forks.
// `argv` is null for a creator that stays a copy of the agent.
[[noreturn]] void start_creator(const Layout& L, unsigned index, const cpu_set_t* affinity,
                                pid_t parent, pid_t pgid, int shm_fd, const char* exe,
                                char* const* argv) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(1);
  ::setpgid(0, pgid);
  ::signal(SIGINT, SIG_IGN);
  ::signal(SIGTERM, SIG_DFL);
  CreatorSlot* slot = &L.slots[index];
  if (::sched_setaffinity(0, sizeof *affinity, affinity) != 0) {
    slot->setup_step.store(kStepAffinity);
    slot->setup_errno.store(errno);
    ::_exit(1);
  }
  if (argv) {
    ::fcntl(shm_fd, F_SETFD, 0);  // keep the shared memory across exec
    ::execv(exe, argv);
    slot->setup_step.store(kStepExec);
    slot->setup_errno.store(errno);
    ::_exit(127);
  }
  run_creator(L, index);
}

void reap_all(const std::vector<pid_t>& creators) {
  for (pid_t pid : creators) {
    while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
}

// Waits for every creator; after `grace`, kills their process group (and so
// any child still around) and reaps.
void reap_all_or_kill(const std::vector<pid_t>& creators, pid_t pgid,
                      std::chrono::nanoseconds grace) {
  const auto deadline = std::chrono::steady_clock::now() + grace;
  std::vector<pid_t> left = creators;
  while (!left.empty() && std::chrono::steady_clock::now() < deadline) {
    std::erase_if(left, [](pid_t pid) {
      pid_t r = ::waitpid(pid, nullptr, WNOHANG);
      return r == pid || (r < 0 && errno == ECHILD);
    });
    if (!left.empty()) std::this_thread::sleep_for(1ms);
  }
  if (!left.empty()) {
    if (pgid > 0) ::kill(-pgid, SIGKILL);  // never kill(0): that is our own group
    reap_all(left);
  }
}

void check_params(const ForkStormParams& p) {
  if (p.workers == 0 || p.fork_max == 0 || p.cpus.empty()) {
    throw WorkloadError(
        fmt::format("fork: workers ({}), fork_max ({}) and cpus ({} PUs) must be non-zero",
                    p.workers, p.fork_max, p.cpus.size()));
  }
  for (int c : p.cpus) {
    if (c < 0 || c >= CPU_SETSIZE) {
      throw WorkloadError(
          fmt::format("fork: cannot pin creator 1 to PU {}: outside [0, {})", c, CPU_SETSIZE));
    }
  }
}

// Shared memory sized, carved and filled in for `p`.
struct Arena {
  std::unique_ptr<SharedMemory> shm;
  Layout layout;
};

Arena make_arena(const ForkStormParams& p) {
  const int n = static_cast<int>(p.cpus.size());
  const int max_os = *std::max_element(p.cpus.begin(), p.cpus.end());
  const bool node_map = !p.pu_to_node.empty(), llc_map = !p.pu_to_llc.empty();
  const bool need_rec = p.record_placement && static_cast<unsigned>(n) > kMaxDenseExit;
  Header h;
  h.workers = p.workers;
  h.fork_max = p.fork_max;
  h.n = n;
  h.max_os = max_os;
  h.record = p.record_placement;
  h.per_cpu = p.pin == PinMode::kPerCpu || n == 1;
  h.stress_ng_child = p.child_body == ChildBody::kStressNg;
  std::size_t off = align_up(sizeof(Header), 64);
  auto carve = [&off](std::size_t bytes) {
    const std::size_t at = off;
    off = align_up(off + bytes, 64);
    return at;
  };
  h.ctl = carve(sizeof(Control));
  h.slots = carve(p.workers * sizeof(CreatorSlot));
  h.lines = carve((n + 1) * sizeof(PuLine));
  h.dense_of = carve((max_os + 1) * sizeof(std::int32_t));
  h.node_d = node_map ? carve(n * sizeof(std::int32_t)) : 0;
  h.llc_d = llc_map ? carve(n * sizeof(std::int32_t)) : 0;
  h.rec = need_rec ? carve(std::size_t{p.workers} * p.fork_max * sizeof(std::int32_t)) : 0;
  h.scratch_started = align_up(p.fork_max * sizeof(pid_t), 8);
  h.scratch_stride = align_up(h.scratch_started + (n + 1) * sizeof(std::uint64_t), 64);
  h.scratch = carve(std::size_t{p.workers} * h.scratch_stride);
  h.total_bytes = off;

  Arena a;
  try {
    a.shm = std::make_unique<SharedMemory>(off);
  } catch (const std::system_error& e) {
    throw WorkloadError(fmt::format("fork: {} ({} bytes)", e.what(), off));
  }
  char* base = static_cast<char*>(a.shm->data());
  new (base) Header(h);
  new (base + h.ctl) Control;
  new (base + h.slots) CreatorSlot[p.workers];
  new (base + h.lines) PuLine[n + 1];
  Layout L = layout_at(base);
  std::fill(L.dense_of, L.dense_of + max_os + 1, -1);
  for (int d = 0; d < n; ++d) L.dense_of[p.cpus[d]] = d;
  auto fill_map = [&](const std::vector<int>& by_os, std::int32_t* out) {
    for (int d = 0; d < n; ++d) {
      const auto os = static_cast<std::size_t>(p.cpus[d]);
      out[d] = os < by_os.size() ? by_os[os] : -1;
    }
  };
  if (L.node_d) fill_map(p.pu_to_node, L.node_d);
  if (L.llc_d) fill_map(p.pu_to_llc, L.llc_d);
  a.layout = L;
  return a;
}

void fill_placement(const ForkStormParams& p, const Layout& L, ForkStormResult& r) {
  r.recorded = true;
  for (int d = 0; d <= L.n; ++d) {
    const PuLine& line = L.lines[d];
    const std::uint64_t started = line.started.load();
    r.children_recorded += started;
    r.same_pu += line.same_pu.load();
    r.collisions += line.collisions.load();
    r.collisions_llc += line.collisions_llc.load();
    if (started == 0) continue;
    const int os = d < L.n ? p.cpus[d] : -1;
    r.children_per_pu[os] += started;
    if (L.node_d) r.children_per_node[d < L.n ? L.node_d[d] : -1] += started;
    if (L.llc_d) r.children_per_llc[d < L.n ? L.llc_d[d] : -1] += started;
  }
  if (r.children_recorded > 0) {
    const auto n = static_cast<double>(r.children_recorded);
    r.same_pu_rate = static_cast<double>(r.same_pu) / n;
    r.collision_rate = static_cast<double>(r.collisions) / n;
    r.collision_rate_llc = static_cast<double>(r.collisions_llc) / n;
  }
}

// Why creator i (0-based) could not start, or "" when it did.
std::string setup_failure(const ForkStormParams& p, const Layout& L, unsigned i,
                          const std::string& exe) {
  const int e = L.slots[i].setup_errno.load();
  if (e == 0) return "";
  if (L.slots[i].setup_step.load() == kStepExec) {
    return fmt::format(
        "fork: creator {} cannot exec {}: {} (set SCHEDRIG_FORK_CREATOR= to run creators "
        "without it)",
        i + 1, exe, std::strerror(e));
  }
  (void)p;
  return fmt::format("fork: cannot pin creator {} to its cpulist: {}", i + 1, std::strerror(e));
}

// argv of each creator's exec (fd of the shared memory, creator index), built
// before any fork: a forked child may only make async-signal-safe calls.
// Pinned in place: argv points into the strings.
class CreatorArgv {
 public:
  CreatorArgv(int shm_fd, unsigned workers) : fd_text_(std::to_string(shm_fd)) {
    for (unsigned i = 0; i < workers; ++i) index_text_.push_back(std::to_string(i));
    for (unsigned i = 0; i < workers; ++i) {
      argvs_.push_back({const_cast<char*>("schedrig-fork-creator"),
                        const_cast<char*>(fd_text_.c_str()), index_text_[i].data(), nullptr});
    }
  }
  CreatorArgv(const CreatorArgv&) = delete;
  CreatorArgv& operator=(const CreatorArgv&) = delete;
  char* const* operator[](unsigned i) { return argvs_[i].data(); }

 private:
  std::string fd_text_;
  std::vector<std::string> index_text_;
  std::vector<std::vector<char*>> argvs_;
};

// The creator processes, in their own process group (the first one's pid).
struct Creators {
  std::vector<pid_t> pids;
  pid_t pgid = 0;
};

// Stops creators that may still wait at the gate, and reaps (or kills) them.
void abandon(const Layout& L, const Creators& c) {
  L.ctl->stop.store(1);
  L.ctl->go.store(1);
  futex_wake_all_shared(&L.ctl->go);
  reap_all_or_kill(c.pids, c.pgid, 10s);
}

// Forks every creator (each then runs or execs the creator loop). Throws
// WorkloadError, after abandoning those already started, when fork(2) fails.
void start_creators(const ForkStormParams& params, const Layout& L, int shm_fd,
                    const std::string& exe, Creators& c) {
  CreatorArgv argv(shm_fd, params.workers);
  const pid_t self = ::getpid();
  for (unsigned i = 0; i < params.workers; ++i) {
    cpu_set_t affinity = affinity_for(params, i);
    pid_t pid = ::fork();
    if (pid == 0) {
      start_creator(L, i, &affinity, self, c.pgid, shm_fd, exe.c_str(),
                    exe.empty() ? nullptr : argv[i]);
    }
    if (pid < 0) {
      int err = errno;
      abandon(L, c);
      throw WorkloadError(fmt::format("fork: cannot start creator {} of {}: {}", i + 1,
                                      params.workers, std::strerror(err)));
    }
    if (c.pgid == 0) c.pgid = pid;
    ::setpgid(pid, c.pgid);  // also done by the creator: whichever runs first wins the race
    c.pids.push_back(pid);
  }
}

// Why the creators are not all at the start gate yet and never will be: a
// setup step that failed, a creator that died (seen without reaping it:
// WNOWAIT on our process group), or `deadline` gone; "" = keep waiting.
std::string not_ready_reason(const ForkStormParams& params, const Layout& L, const std::string& exe,
                             const Creators& c, std::chrono::steady_clock::time_point deadline) {
  const auto first_setup_failure = [&] {
    std::string why;
    for (unsigned i = 0; i < params.workers && why.empty(); ++i) {
      why = setup_failure(params, L, i, exe);
    }
    return why;
  };
  std::string why = first_setup_failure();
  siginfo_t si{};
  if (why.empty() &&
      ::waitid(P_PGID, static_cast<id_t>(c.pgid), &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
      si.si_pid != 0) {
    // A creator records its failed step before it exits: one that failed
    // after the first look is named by its step, not as a bare exit.
    why = first_setup_failure();
    if (!why.empty()) return why;
    const auto it = std::find(c.pids.begin(), c.pids.end(), si.si_pid);
    why = fmt::format("fork: creator {} exited before it started ({})", it - c.pids.begin() + 1,
                      exe.empty() ? "in-process" : exe + ": is it from this build?");
  }
  if (why.empty() && std::chrono::steady_clock::now() > deadline) {
    why = fmt::format("fork: creators not ready after 10 s ({} of {})", L.ctl->ready.load(),
                      params.workers);
  }
  return why;
}

// Waits until every creator is at the start gate; a stop request ends the
// wait early. Throws WorkloadError, after abandoning the creators, when one
// cannot get there (not_ready_reason) within 10 s.
void wait_at_gate(const ForkStormParams& params, const Layout& L, const std::string& exe,
                  const Creators& c, const std::atomic<bool>* stop) {
  const auto setup_deadline = std::chrono::steady_clock::now() + 10s;
  while (L.ctl->ready.load() < params.workers && !(stop && stop->load())) {
    const std::string why = not_ready_reason(params, L, exe, c, setup_deadline);
    if (!why.empty()) {
      abandon(L, c);
      throw WorkloadError(why);
    }
    std::this_thread::sleep_for(200us);
  }
}

// Tells the observer the window opens: the creators, and the children
// reaped so far as live progress.
void open_window(const ForkStormParams& params, const Layout& L, const Creators& c) {
  if (!params.observer.opened) return;
  WorkloadWindow window;
  for (pid_t pid : c.pids) window.tasks.push_back({pid, pid});
  window.ops_so_far = [&L, n = params.workers] {
    std::uint64_t reaped = 0;
    for (unsigned i = 0; i < n; ++i) reaped += L.slots[i].reaped.load(std::memory_order_relaxed);
    return reaped;
  };
  params.observer.opened(window);
}

// Opens the gate, lets the storm run for params.duration (or until *stop),
// then stops and reaps every creator. Returns the window's length: from the
// start signal until every creator exited.
std::chrono::steady_clock::duration run_window(const ForkStormParams& params, const Layout& L,
                                               const Creators& c, const std::atomic<bool>* stop) {
  open_window(params, L, c);
  const auto t0 = std::chrono::steady_clock::now();
  L.ctl->go.store(1, std::memory_order_release);
  futex_wake_all_shared(&L.ctl->go);
  sleep_until_or_stopped(t0 + params.duration, stop);
  L.ctl->stop.store(1);
  reap_all_or_kill(c.pids, c.pgid, 10s);
  const auto t1 = std::chrono::steady_clock::now();
  if (params.observer.closed) params.observer.closed();
  return t1 - t0;
}

ForkStormResult collect_result(const ForkStormParams& params, const Layout& L,
                               const std::string& exe, std::chrono::steady_clock::duration took) {
  ForkStormResult r;
  r.creators_exec = !exe.empty();
  for (unsigned i = 0; i < params.workers; ++i) {
    r.bogo_ops += L.slots[i].reaped.load();
    r.fork_failures += L.slots[i].failures.load();
  }
  r.duration_s = std::chrono::duration<double>(took).count();
  r.bogo_ops_per_s = r.duration_s > 0 ? static_cast<double>(r.bogo_ops) / r.duration_s : 0;
  if (params.record_placement) fill_placement(params, L, r);
  return r;
}

}  // namespace

std::string find_fork_creator() {
  if (const char* env = std::getenv("SCHEDRIG_FORK_CREATOR")) return env;
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  std::vector<fs::path> candidates;
  if (!ec) {
    candidates.push_back(self.parent_path() / "schedrig-fork-creator");  // a build's bin/
    // The packages' layout: /usr/bin/schedrig-agent, /usr/libexec/schedrig/.
    candidates.push_back(self.parent_path().parent_path() /
                         "libexec/schedrig/schedrig-fork-creator");
  }
#ifdef SCHEDRIG_BUILD_BIN_DIR
  candidates.push_back(fs::path(SCHEDRIG_BUILD_BIN_DIR) / "schedrig-fork-creator");
#endif
  for (const auto& c : candidates) {
    if (::access(c.c_str(), X_OK) == 0) return c.string();
  }
  return "";
}

ForkStormResult run_fork_storm(const ForkStormParams& params, const std::atomic<bool>* stop) {
  check_params(params);
  Arena arena = make_arena(params);
  std::vector<std::int32_t> tables;  // what in-process creators and their children read
  const Layout L = with_private_tables(arena.layout, tables);
  const std::string exe =
      params.creator_exe == kFindCreator ? find_fork_creator() : params.creator_exe;
  Creators creators;
  start_creators(params, L, arena.shm->fd(), exe, creators);
  wait_at_gate(params, L, exe, creators, stop);
  const auto took = run_window(params, L, creators, stop);
  return collect_result(params, L, exe, took);
}

}  // namespace schedrig::workloads
