#include "agent/workloads/fork_storm.h"

#include <linux/futex.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include <fmt/format.h>

#include "agent/workloads/shared_memory.h"

namespace schedrig::workloads {
namespace {

// Shared between the agent and the creators. One cache line per creator so
// counting does not bounce lines between PUs.
struct alignas(64) CreatorSlot {
  std::atomic<std::uint64_t> reaped{0};
  std::atomic<std::uint64_t> failures{0};
  std::atomic<int> setup_errno{0};
};

struct Control {
  alignas(64) std::atomic<std::uint32_t> go{0};  // futex word: 0 wait, 1 start
  alignas(64) std::atomic<std::uint32_t> stop{0};
};

void futex_wait(std::atomic<std::uint32_t>* word, std::uint32_t expected) {
  ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(word), FUTEX_WAIT, expected, nullptr,
            nullptr, 0);
}

void futex_wake_all(std::atomic<std::uint32_t>* word) {
  ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(word), FUTEX_WAKE, INT32_MAX, nullptr,
            nullptr, 0);
}

// Body of one creator process. Only async-signal-safe calls: the agent may
// have other threads when it forks. `pids` was allocated before fork.
[[noreturn]] void creator_main(Control* ctl, CreatorSlot* slot, pid_t* pids, unsigned fork_max,
                               const cpu_set_t* affinity, pid_t parent) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(1);
  ::signal(SIGINT, SIG_IGN);
  ::signal(SIGTERM, SIG_DFL);
  if (::sched_setaffinity(0, sizeof *affinity, affinity) != 0) {
    slot->setup_errno.store(errno);
    ::_exit(1);
  }
  while (ctl->go.load(std::memory_order_acquire) == 0) futex_wait(&ctl->go, 0);
  while (ctl->stop.load(std::memory_order_relaxed) == 0) {
    unsigned forked = 0;
    for (; forked < fork_max; ++forked) {
      pid_t pid = ::fork();
      if (pid == 0) ::_exit(0);
      if (pid < 0) {
        slot->failures.fetch_add(1, std::memory_order_relaxed);
        break;
      }
      pids[forked] = pid;
    }
    for (unsigned i = 0; i < forked; ++i) {
      while (::waitpid(pids[i], nullptr, 0) < 0 && errno == EINTR) {
      }
    }
    slot->reaped.fetch_add(forked, std::memory_order_relaxed);
  }
  ::_exit(0);
}

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

void reap_all(const std::vector<pid_t>& creators) {
  for (pid_t pid : creators) {
    while (::waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
}

void sleep_until_done(std::chrono::steady_clock::time_point deadline,
                      const std::atomic<bool>* stop) {
  using namespace std::chrono_literals;
  while (std::chrono::steady_clock::now() < deadline) {
    if (stop && stop->load()) return;
    std::this_thread::sleep_for(
        std::min<std::chrono::nanoseconds>(10ms, deadline - std::chrono::steady_clock::now()));
  }
}

void check_params(const ForkStormParams& p) {
  if (p.workers == 0 || p.fork_max == 0 || p.cpus.empty()) {
    throw WorkloadError(
        fmt::format("fork: workers ({}), fork_max ({}) and cpus ({} PUs) must be non-zero",
                    p.workers, p.fork_max, p.cpus.size()));
  }
}

}  // namespace

ForkStormResult run_fork_storm(const ForkStormParams& params, const std::atomic<bool>* stop) {
  check_params(params);
  SharedMemory shm(sizeof(Control) + params.workers * sizeof(CreatorSlot));
  auto* ctl = new (shm.data()) Control;
  auto* slots = new (static_cast<char*>(shm.data()) + sizeof(Control)) CreatorSlot[params.workers];
  std::vector<pid_t> child_pids(static_cast<std::size_t>(params.workers) * params.fork_max);
  std::vector<pid_t> creators;
  const pid_t self = ::getpid();

  for (unsigned i = 0; i < params.workers; ++i) {
    cpu_set_t affinity = affinity_for(params, i);
    pid_t pid = ::fork();
    if (pid == 0) {
      creator_main(ctl, &slots[i], &child_pids[std::size_t{i} * params.fork_max], params.fork_max,
                   &affinity, self);
    }
    if (pid < 0) {
      int err = errno;
      ctl->stop.store(1);
      ctl->go.store(1);
      futex_wake_all(&ctl->go);
      reap_all(creators);
      throw WorkloadError(fmt::format("fork: cannot start creator {} of {}: {}", i + 1,
                                      params.workers, std::strerror(err)));
    }
    creators.push_back(pid);
  }

  const auto t0 = std::chrono::steady_clock::now();
  ctl->go.store(1, std::memory_order_release);
  futex_wake_all(&ctl->go);
  sleep_until_done(t0 + params.duration, stop);
  ctl->stop.store(1);
  reap_all(creators);
  const auto t1 = std::chrono::steady_clock::now();

  ForkStormResult r;
  for (unsigned i = 0; i < params.workers; ++i) {
    if (int e = slots[i].setup_errno.load()) {
      throw WorkloadError(
          fmt::format("fork: cannot pin creator {} to its cpulist: {}", i + 1, std::strerror(e)));
    }
    r.bogo_ops += slots[i].reaped.load();
    r.fork_failures += slots[i].failures.load();
  }
  r.duration_s = std::chrono::duration<double>(t1 - t0).count();
  r.bogo_ops_per_s = r.duration_s > 0 ? static_cast<double>(r.bogo_ops) / r.duration_s : 0;
  return r;
}

}  // namespace schedrig::workloads
