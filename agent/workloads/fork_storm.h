// The fork storm: stress-ng `--fork N --fork-max M` semantics
// (stress-ng stress-fork.c, stress_fork_fn). N creator processes each loop:
// fork up to M children, then reap them all; the loop ends early when the
// run stops (stress-ng checks after every fork too). Bogo ops = children
// reaped (stress-ng bumps its counter after each successful waitpid).
//
// Differences from stress-ng 0.15, on purpose (docs/workloads.md):
//  - our children _exit at once (ChildBody::kExit, the default).
//    stress-ng 0.15's children all sched_yield before _exit, and its
//    even-numbered ones (all of them with --fork-max 1) first call setsid,
//    vhangup, getpid, getpgid and four setpgid (ChildBody::kStressNg copies
//    that, for like-for-like comparisons). The sched_yield can hand the CPU
//    to another runnable task before the child exits, and setsid puts each
//    child in a new session, a new autogroup when
//    kernel.sched_autogroup_enabled=1: on a busy box stress-ng's rate
//    depends on the other load.
//  - stress-ng forks from its own ~170-mapping process; our creators exec a
//    dozen-mapping helper (below); fork and exit cost grows with mappings.
//    These two are why stress-ng counts 2-10x fewer bogo ops/s on the same
//    box (docs/workloads.md).
//  - a creator reaps its children in exit order (waitpid(-1)), stress-ng in
//    fork order; the count is the same.
//
// Placement recording (record_placement, on by default). Each child, at its
// first user-space instruction, reads the PU it runs on (sched_getcpu),
// compares it with its creator's PU (sched_getcpu just before fork) and
// reports both through its exit status. Derived:
//  - same_pu_rate: children whose first PU was their creator's PU / children.
//  - children per PU, and per NUMA node / LLC when the maps are given.
//  - placement collision rate, counted exactly like this. Per PU p the agent
//    keeps two shared counters: `alive` = children of ours that started on p
//    (incremented by the child at its first instruction) and are not yet
//    reaped (decremented by the creator right after waitpid returns them),
//    and `forking` = creators inside fork(2) whose PU before the call was p.
//    A child that starts on p is a *collision* when, at that instant, (1) p's
//    `alive` count was already >= 1 (another of our children started on p and
//    has not been reaped), and (2) some other PU q of the child's allowed
//    cpulist, in the scope of p, had alive == 0 and forking == 0. Scope: p's
//    NUMA node when pu_to_node is given, else the whole allowed cpulist
//    (collision_rate); p's LLC when pu_to_llc is given (collision_rate_llc).
//    With `per-cpu` pinning, or one allowed PU, no other PU is allowed, so the
//    rate is 0 by definition. It is our user-space view of the "stale idle
//    pick" (concurrent forks converging on one idle PU) and of an idle PU
//    that did not pull the waiting child. It is an upper bound: a child counts
//    as alive until its creator has reaped it (the creator's wake-up latency
//    after the child's exit included), and "idle" ignores other processes'
//    tasks, so on a shared or loaded box it reads high.
//  Cost per child: a sched_getcpu (rseq) and, when collisions are possible
//  (set pinning over more than one PU), one atomic add on its PU's cache line,
//  i.e. one fault on a shared page (fork does not copy page tables of shared
//  mappings; read-only tables are private copies, so reading them is free).
//  Its PU and whether it is the creator's come back in its exit status,
//  counted privately by the creator. Per fork the creator adds a
//  sched_getcpu and, in set mode, two atomics on its own PU's line; per reap
//  one atomic. bench/fork_record_overhead.sh measures it.
//
// Creators exec schedrig-fork-creator (fork_creator.h), a static helper with
// a dozen mappings, when it is found (find_fork_creator); fork(2) and exit
// cost grows with the forking process's mappings, and this keeps ours at a
// minimal loop's instead of the agent's ~80 (stress-ng's are ~170).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "agent/workloads/window_observer.h"
#include "agent/workloads/workload_error.h"

namespace schedrig::workloads {

// Where creators (and so their children) may run.
enum class PinMode {
  kSet,     // every creator gets the whole cpulist (stress-ng --taskset): the kernel places
  kPerCpu,  // creator i is pinned to cpus[i % cpus.size()]
};

inline constexpr const char* kFindCreator = "find";

// What a child does between its first instruction and _exit.
enum class ChildBody {
  kExit,      // nothing: it exits at once (default)
  kStressNg,  // stress-ng 0.15's calls: setsid, vhangup, getpid, getpgid and four
              // setpgid for the even-numbered children of a loop, then sched_yield for all
};

struct ForkStormParams {
  unsigned workers = 1;   // creator processes, >= 1
  unsigned fork_max = 1;  // children per loop, >= 1
  std::vector<int> cpus;  // PU OS indexes, non-empty, each < CPU_SETSIZE
  PinMode pin = PinMode::kSet;
  std::chrono::nanoseconds duration{std::chrono::seconds(1)};
  bool record_placement = true;  // see the file comment; off for the overhead bench
  ChildBody child_body = ChildBody::kExit;
  std::vector<int> pu_to_llc;   // optional, by PU OS index, -1 = unknown
  std::vector<int> pu_to_node;  // optional, by PU OS index, -1 = unknown
  WindowObserver observer;      // optional: told the creators and progress
  // The helper each creator execs (fork_creator.h): kFindCreator = look it up
  // with find_fork_creator(); "" = creators stay copies of the caller (a
  // bigger address space: slower forks); else a path.
  std::string creator_exe = kFindCreator;
};

struct ForkStormResult {
  std::uint64_t bogo_ops = 0;       // children forked and reaped
  std::uint64_t fork_failures = 0;  // fork(2) calls that failed (EAGAIN, ENOMEM)
  double duration_s = 0;            // from the start signal until every creator exited
  double bogo_ops_per_s = 0;        // bogo_ops / duration_s
  bool creators_exec = false;       // creators ran schedrig-fork-creator

  // Placement, filled when record_placement was on (recorded == true).
  bool recorded = false;
  std::uint64_t children_recorded = 0;             // children that recorded a PU (= bogo_ops)
  std::uint64_t same_pu = 0;                       // ... whose first PU was their creator's PU
  std::uint64_t collisions = 0;                    // scope: node if known, else allowed cpulist
  std::uint64_t collisions_llc = 0;                // scope: LLC; 0 without pu_to_llc
  double same_pu_rate = 0;                         // same_pu / children_recorded, in [0, 1]
  double collision_rate = 0;                       // collisions / children_recorded
  double collision_rate_llc = 0;                   // collisions_llc / children_recorded
  std::map<int, std::uint64_t> children_per_pu;    // PU OS index -> children (-1 = unknown)
  std::map<int, std::uint64_t> children_per_node;  // only with pu_to_node
  std::map<int, std::uint64_t> children_per_llc;   // only with pu_to_llc
};

// The schedrig-fork-creator helper: $SCHEDRIG_FORK_CREATOR if set (empty =
// none), else beside this executable, else in ../libexec/schedrig/ from it
// (the packages install /usr/libexec/schedrig/schedrig-fork-creator), else
// in the build's bin directory; "" when none is executable.
std::string find_fork_creator();

// Runs the storm for params.duration, or until *stop becomes true (checked
// every 10 ms; e.g. set from a SIGINT handler). The window starts once every
// creator waits at the start gate. Creators run in their own process group, get
// PR_SET_PDEATHSIG(SIGKILL) and ignore SIGINT, so they stop only through the shared stop flag
// (finishing the fork in progress and reaping their children) or die with the caller; creators that
// have not exited 10 s after the stop are killed with their group. Every creator and child has been
// reaped when this returns, and the shared memory is unmapped. Throws WorkloadError (after cleaning
// up) when params are invalid, or fork(2) of a creator, sched_setaffinity(2) or the helper's exec
// fails.
ForkStormResult run_fork_storm(const ForkStormParams& params,
                               const std::atomic<bool>* stop = nullptr);

}  // namespace schedrig::workloads
