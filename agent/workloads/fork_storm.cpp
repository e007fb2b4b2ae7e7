#include "agent/workloads/fork_storm.h"

#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <system_error>
#include <thread>

#include <fmt/format.h>

#include "agent/workloads/futex.h"
#include "agent/workloads/shared_memory.h"

namespace schedrig::workloads {
namespace {

using namespace std::chrono_literals;

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

// Per PU of the placement (dense index into cpus; the last line is "a PU
// outside the placement"), one cache line: written by the children that
// start there and by the creators forking there.
struct alignas(64) PuLine {
  std::atomic<std::int32_t> alive{0};    // our children started here, not yet reaped
  std::atomic<std::int32_t> forking{0};  // our creators inside fork(2) from here
  std::atomic<std::uint64_t> started{0};
  std::atomic<std::uint64_t> same_pu{0};
  std::atomic<std::uint64_t> collisions{0};
  std::atomic<std::uint64_t> collisions_llc{0};
};

// Exit codes 1..kMaxDenseExit carry the child's dense PU index + 1; above
// that many PUs the child writes its index to `rec` and exits kExitSeeRecord.
constexpr unsigned kMaxDenseExit = 254;
constexpr int kExitSeeRecord = 255;

// Everything a creator and its children read; lives in shared memory or in
// memory copied at fork, never written after the start.
struct Layout {
  Control* ctl = nullptr;
  CreatorSlot* slots = nullptr;
  PuLine* lines = nullptr;           // n + 1
  std::int32_t* dense_of = nullptr;  // by PU OS index, max_os + 1 entries, -1 = not ours
  std::int32_t* node_d = nullptr;    // by dense index, -1 unknown; nullptr without a map
  std::int32_t* llc_d = nullptr;
  std::int32_t* rec = nullptr;  // workers * fork_max, only when n > kMaxDenseExit - 1
  int n = 0;                    // PUs in the placement
  int max_os = 0;
  bool record = false;
  bool per_cpu = false;
};

std::size_t align_up(std::size_t v, std::size_t a) { return (v + a - 1) / a * a; }

int dense_pu(const Layout& L, int os) {
  if (os < 0 || os > L.max_os) return L.n;
  int d = L.dense_of[os];
  return d < 0 ? L.n : d;
}

// Child side of the collision count (see fork_storm.h). Only called when
// another child of ours is alive on `d`.
void count_collision(const Layout& L, int d) {
  if (L.per_cpu || d >= L.n) return;  // no other allowed PU / not one of ours
  bool any = false, llc = false;
  const int node = L.node_d ? L.node_d[d] : -1;
  const int cache = L.llc_d ? L.llc_d[d] : -1;
  for (int q = 0; q < L.n && !(any && (llc || !L.llc_d)); ++q) {
    if (q == d) continue;
    const PuLine& ql = L.lines[q];
    if (ql.alive.load(std::memory_order_relaxed) != 0 ||
        ql.forking.load(std::memory_order_relaxed) != 0)
      continue;
    if (node < 0 || L.node_d[q] == node) any = true;
    if (L.llc_d && cache >= 0 && L.llc_d[q] == cache) llc = true;
  }
  if (any) L.lines[d].collisions.fetch_add(1, std::memory_order_relaxed);
  if (llc) L.lines[d].collisions_llc.fetch_add(1, std::memory_order_relaxed);
}

// A child's whole life: record where it runs, then exit.
[[noreturn]] void child_main(const Layout& L, int creator_dense, std::int32_t* rec_slot) {
  if (!L.record) ::_exit(0);
  const int d = dense_pu(L, ::sched_getcpu());
  PuLine& line = L.lines[d];
  const int before = line.alive.fetch_add(1, std::memory_order_acq_rel);
  line.started.fetch_add(1, std::memory_order_relaxed);
  if (d == creator_dense) line.same_pu.fetch_add(1, std::memory_order_relaxed);
  if (before > 0) count_collision(L, d);
  if (L.rec) {
    *rec_slot = d;
    ::_exit(kExitSeeRecord);
  }
  ::_exit(d + 1);
}

// The creator learns where a reaped child ran from its exit status (or its
// record) and takes it off that PU's `alive` count.
void child_reaped(const Layout& L, pid_t pid, int status, const pid_t* pids,
                  const std::int32_t* recs, unsigned forked, unsigned& hint) {
  if (!L.record || !WIFEXITED(status)) return;
  int d = WEXITSTATUS(status) - 1;
  if (WEXITSTATUS(status) == kExitSeeRecord && L.rec) {
    // Children mostly exit in fork order: search from the last hit.
    d = -1;
    for (unsigned k = 0; k < forked; ++k) {
      unsigned i = (hint + k) % forked;
      if (pids[i] == pid) {
        d = recs[i];
        hint = i + 1;
        break;
      }
    }
  }
  if (d >= 0 && d <= L.n) L.lines[d].alive.fetch_sub(1, std::memory_order_acq_rel);
}

// Body of one creator process. Only async-signal-safe calls: the agent may
// have other threads when it forks. `pids` was allocated before fork.
[[noreturn]] void creator_main(const Layout& L, unsigned index, pid_t* pids, unsigned fork_max,
                               const cpu_set_t* affinity, pid_t parent, pid_t pgid) {
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(1);
  ::setpgid(0, pgid);
  ::signal(SIGINT, SIG_IGN);
  ::signal(SIGTERM, SIG_DFL);
  CreatorSlot* slot = &L.slots[index];
  if (::sched_setaffinity(0, sizeof *affinity, affinity) != 0) {
    slot->setup_errno.store(errno);
    ::_exit(1);
  }
  std::int32_t* recs = L.rec ? L.rec + std::size_t{index} * fork_max : nullptr;
  futex_wait_shared(&L.ctl->go, 0);
  unsigned hint = 0;
  bool stopping = L.ctl->stop.load(std::memory_order_relaxed) != 0;
  while (!stopping) {
    unsigned forked = 0;
    while (forked < fork_max) {
      int creator_dense = L.n;
      if (L.record) {
        creator_dense = dense_pu(L, ::sched_getcpu());
        L.lines[creator_dense].forking.fetch_add(1, std::memory_order_relaxed);
      }
      pid_t pid = ::fork();
      if (pid == 0) child_main(L, creator_dense, recs ? &recs[forked] : nullptr);
      if (L.record) L.lines[creator_dense].forking.fetch_sub(1, std::memory_order_relaxed);
      if (pid < 0) {
        slot->failures.fetch_add(1, std::memory_order_relaxed);
        break;
      }
      pids[forked++] = pid;
      if (L.ctl->stop.load(std::memory_order_relaxed) != 0) {
        stopping = true;
        break;
      }
    }
    for (unsigned left = forked; left > 0;) {
      int status = 0;
      pid_t pid = ::waitpid(-1, &status, 0);
      if (pid < 0) {
        if (errno == EINTR) continue;
        break;  // ECHILD: nothing left (cannot happen: every child exits)
      }
      --left;
      child_reaped(L, pid, status, pids, recs, forked, hint);
    }
    slot->reaped.fetch_add(forked, std::memory_order_relaxed);
    stopping = stopping || L.ctl->stop.load(std::memory_order_relaxed) != 0;
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

void sleep_until_done(std::chrono::steady_clock::time_point deadline,
                      const std::atomic<bool>* stop) {
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
  for (int c : p.cpus) {
    if (c < 0 || c >= CPU_SETSIZE) {
      throw WorkloadError(
          fmt::format("fork: cannot pin creator 1 to PU {}: outside [0, {})", c, CPU_SETSIZE));
    }
  }
}

// Shared memory sized and carved for `p`.
struct Arena {
  std::unique_ptr<SharedMemory> shm;
  Layout layout;
};

Arena make_arena(const ForkStormParams& p) {
  const int n = static_cast<int>(p.cpus.size());
  const int max_os = *std::max_element(p.cpus.begin(), p.cpus.end());
  const bool node_map = !p.pu_to_node.empty(), llc_map = !p.pu_to_llc.empty();
  const bool need_rec = p.record_placement && static_cast<unsigned>(n) + 1 > kMaxDenseExit;
  std::size_t off = 0;
  const std::size_t ctl_off = off;
  off = align_up(off + sizeof(Control), 64);
  const std::size_t slots_off = off;
  off = align_up(off + p.workers * sizeof(CreatorSlot), 64);
  const std::size_t lines_off = off;
  off = align_up(off + (n + 1) * sizeof(PuLine), 64);
  const std::size_t dense_off = off;
  off = align_up(off + (max_os + 1) * sizeof(std::int32_t), 64);
  const std::size_t node_off = off;
  off = align_up(off + (node_map ? n : 0) * sizeof(std::int32_t), 64);
  const std::size_t llc_off = off;
  off = align_up(off + (llc_map ? n : 0) * sizeof(std::int32_t), 64);
  const std::size_t rec_off = off;
  off += need_rec ? std::size_t{p.workers} * p.fork_max * sizeof(std::int32_t) : 0;

  Arena a;
  try {
    a.shm = std::make_unique<SharedMemory>(std::max<std::size_t>(off, 64));
  } catch (const std::system_error& e) {
    throw WorkloadError(fmt::format("fork: {} ({} bytes)", e.what(), off));
  }
  char* base = static_cast<char*>(a.shm->data());
  Layout& L = a.layout;
  L.ctl = new (base + ctl_off) Control;
  L.slots = new (base + slots_off) CreatorSlot[p.workers];
  L.lines = new (base + lines_off) PuLine[n + 1];
  L.dense_of = reinterpret_cast<std::int32_t*>(base + dense_off);
  std::fill(L.dense_of, L.dense_of + max_os + 1, -1);
  for (int d = 0; d < n; ++d) L.dense_of[p.cpus[d]] = d;
  auto map_of = [&](const std::vector<int>& by_os, std::size_t at) {
    auto* out = reinterpret_cast<std::int32_t*>(base + at);
    for (int d = 0; d < n; ++d) {
      const auto os = static_cast<std::size_t>(p.cpus[d]);
      out[d] = os < by_os.size() ? by_os[os] : -1;
    }
    return out;
  };
  L.node_d = node_map ? map_of(p.pu_to_node, node_off) : nullptr;
  L.llc_d = llc_map ? map_of(p.pu_to_llc, llc_off) : nullptr;
  L.rec = need_rec ? reinterpret_cast<std::int32_t*>(base + rec_off) : nullptr;
  L.n = n;
  L.max_os = max_os;
  L.record = p.record_placement;
  L.per_cpu = p.pin == PinMode::kPerCpu || n == 1;
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

}  // namespace

ForkStormResult run_fork_storm(const ForkStormParams& params, const std::atomic<bool>* stop) {
  check_params(params);
  Arena arena = make_arena(params);
  const Layout& L = arena.layout;
  std::vector<pid_t> child_pids(static_cast<std::size_t>(params.workers) * params.fork_max);
  std::vector<pid_t> creators;
  const pid_t self = ::getpid();
  pid_t pgid = 0;

  auto abandon = [&] {
    L.ctl->stop.store(1);
    L.ctl->go.store(1);
    futex_wake_all_shared(&L.ctl->go);
    reap_all_or_kill(creators, pgid, 10s);
  };
  for (unsigned i = 0; i < params.workers; ++i) {
    cpu_set_t affinity = affinity_for(params, i);
    pid_t pid = ::fork();
    if (pid == 0) {
      creator_main(L, i, &child_pids[std::size_t{i} * params.fork_max], params.fork_max, &affinity,
                   self, pgid);
    }
    if (pid < 0) {
      int err = errno;
      abandon();
      throw WorkloadError(fmt::format("fork: cannot start creator {} of {}: {}", i + 1,
                                      params.workers, std::strerror(err)));
    }
    if (pgid == 0) pgid = pid;
    ::setpgid(pid, pgid);  // also done by the creator: whichever runs first wins the race
    creators.push_back(pid);
  }

  const auto t0 = std::chrono::steady_clock::now();
  L.ctl->go.store(1, std::memory_order_release);
  futex_wake_all_shared(&L.ctl->go);
  sleep_until_done(t0 + params.duration, stop);
  L.ctl->stop.store(1);
  reap_all_or_kill(creators, pgid, 10s);
  const auto t1 = std::chrono::steady_clock::now();

  ForkStormResult r;
  for (unsigned i = 0; i < params.workers; ++i) {
    if (int e = L.slots[i].setup_errno.load()) {
      throw WorkloadError(
          fmt::format("fork: cannot pin creator {} to its cpulist: {}", i + 1, std::strerror(e)));
    }
    r.bogo_ops += L.slots[i].reaped.load();
    r.fork_failures += L.slots[i].failures.load();
  }
  r.duration_s = std::chrono::duration<double>(t1 - t0).count();
  r.bogo_ops_per_s = r.duration_s > 0 ? static_cast<double>(r.bogo_ops) / r.duration_s : 0;
  if (params.record_placement) fill_placement(params, L, r);
  return r;
}

}  // namespace schedrig::workloads
