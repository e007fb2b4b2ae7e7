#include "agent/workloads/fork_creator.h"

#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

#include "agent/workloads/futex.h"

namespace schedrig::workloads::fork_internal {
namespace {

int dense_pu(const Layout& L, int os) {
  if (os < 0 || os > L.max_os) return L.n;
  int d = L.dense_of[os];
  return d < 0 ? L.n : d;
}

// Child side of the collision count (fork_storm.h). Only called when
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

// stress-ng 0.15's child body (stress-fork.c): the even-numbered children of
// a loop make some session and process-group calls, then every child yields.
// After setsid there is no controlling terminal, so vhangup does nothing.
void stress_ng_child_calls(unsigned n) {
  if ((n & 1) == 0) {
    if (::setsid() != -1) ::vhangup();
    ::setpgid(0, 0);
    const pid_t me = ::getpid();
    ::setpgid(me, ::getpgid(me));
    ::setpgid(0, -1);  // EINVAL, as stress-ng
    ::setpgid(-1, 0);  // EINVAL, as stress-ng
  }
  ::sched_yield();
}

// A child's whole life: record where it runs, (optionally) make stress-ng's
// calls, then exit. `n` is its number in the creator's loop.
[[noreturn]] void child_main(const Layout& L, int creator_dense, std::int32_t* rec_slot,
                             unsigned n) {
  if (!L.record) {
    if (L.stress_ng_child) stress_ng_child_calls(n);
    ::_exit(0);
  }
  const int d = dense_pu(L, ::sched_getcpu());
  const bool same = d == creator_dense;
  // Collisions need another allowed PU: with one (per-cpu, a single PU) the
  // child leaves shared memory alone, which spares it a page fault.
  if (!L.per_cpu && L.lines[d].alive.fetch_add(1, std::memory_order_acq_rel) > 0) {
    count_collision(L, d);
  }
  if (L.stress_ng_child) stress_ng_child_calls(n);
  if (rec_slot) {
    *rec_slot = d | (same ? kRecSame : 0);
    ::_exit(kExitSeeRecord);
  }
  ::_exit(1 + d + (same ? kSameBit : 0));
}

// What a creator keeps to itself while it runs.
struct CreatorCounts {
  std::uint64_t* started;  // by dense PU, n + 1
  std::uint64_t same_pu = 0;
};

// The creator learns where a reaped child ran from its exit status (or its
// record), counts it and takes it off that PU's `alive` count.
void child_reaped(const Layout& L, pid_t pid, int status, const pid_t* pids,
                  const std::int32_t* recs, unsigned forked, unsigned& hint, CreatorCounts& c) {
  if (!L.record || !WIFEXITED(status) || WEXITSTATUS(status) == 0) return;
  int code = WEXITSTATUS(status);
  int d = -1;
  bool same = false;
  if (code == kExitSeeRecord && recs) {
    for (unsigned k = 0; k < forked; ++k) {  // children mostly exit in fork order
      unsigned i = (hint + k) % forked;
      if (pids[i] == pid) {
        d = recs[i] & ~kRecSame;
        same = (recs[i] & kRecSame) != 0;
        hint = i + 1;
        break;
      }
    }
  } else {
    same = code > kSameBit;
    d = code - 1 - (same ? kSameBit : 0);
  }
  if (d < 0 || d > L.n) return;
  ++c.started[d];
  c.same_pu += same;
  if (!L.per_cpu) L.lines[d].alive.fetch_sub(1, std::memory_order_acq_rel);
}

}  // namespace

Layout layout_at(void* base) {
  Layout L;
  auto* h = static_cast<const Header*>(base);
  if (h->magic != kMagic || h->version != kLayoutVersion || h->header_bytes != sizeof(Header))
    return L;
  char* b = static_cast<char*>(base);
  L.header = h;
  L.ctl = reinterpret_cast<Control*>(b + h->ctl);
  L.slots = reinterpret_cast<CreatorSlot*>(b + h->slots);
  L.lines = reinterpret_cast<PuLine*>(b + h->lines);
  L.dense_of = reinterpret_cast<std::int32_t*>(b + h->dense_of);
  L.node_d = h->node_d ? reinterpret_cast<std::int32_t*>(b + h->node_d) : nullptr;
  L.llc_d = h->llc_d ? reinterpret_cast<std::int32_t*>(b + h->llc_d) : nullptr;
  L.rec = h->rec ? reinterpret_cast<std::int32_t*>(b + h->rec) : nullptr;
  L.scratch = b + h->scratch;
  L.n = h->n;
  L.max_os = h->max_os;
  L.record = h->record != 0;
  L.per_cpu = h->per_cpu != 0;
  L.stress_ng_child = h->stress_ng_child != 0;
  return L;
}

Layout with_private_tables(const Layout& L, std::vector<std::int32_t>& storage) {
  const std::size_t n = static_cast<std::size_t>(L.n), dense = L.max_os + 1;
  storage.assign(dense + (L.node_d ? n : 0) + (L.llc_d ? n : 0), -1);
  Layout out = L;
  std::int32_t* at = storage.data();
  std::copy(L.dense_of, L.dense_of + dense, at);
  out.dense_of = at;
  at += dense;
  if (L.node_d) {
    std::copy(L.node_d, L.node_d + n, at);
    out.node_d = at;
    at += n;
  }
  if (L.llc_d) {
    std::copy(L.llc_d, L.llc_d + n, at);
    out.llc_d = at;
  }
  return out;
}

void run_creator(const Layout& L, unsigned index) {
  const unsigned fork_max = L.header->fork_max;
  char* scratch = L.scratch + std::size_t{index} * L.header->scratch_stride;
  pid_t* pids = reinterpret_cast<pid_t*>(scratch);
  std::uint64_t* started = reinterpret_cast<std::uint64_t*>(scratch + L.header->scratch_started);
  CreatorSlot* slot = &L.slots[index];
  std::int32_t* recs = L.rec ? L.rec + std::size_t{index} * fork_max : nullptr;
  L.ctl->ready.fetch_add(1);
  futex_wait_shared(&L.ctl->go, 0);
  unsigned hint = 0;
  CreatorCounts counts{started};
  bool stopping = L.ctl->stop.load(std::memory_order_relaxed) != 0;
  while (!stopping) {
    unsigned forked = 0;
    while (forked < fork_max) {
      int creator_dense = L.n;
      const bool mark = L.record && !L.per_cpu;  // `forking` only matters for collisions
      if (L.record) creator_dense = dense_pu(L, ::sched_getcpu());
      if (mark) L.lines[creator_dense].forking.fetch_add(1, std::memory_order_relaxed);
      pid_t pid = ::fork();
      if (pid == 0) child_main(L, creator_dense, recs ? &recs[forked] : nullptr, forked);
      if (mark) L.lines[creator_dense].forking.fetch_sub(1, std::memory_order_relaxed);
      if (pid < 0) {
        slot->failures.fetch_add(1, std::memory_order_relaxed);
        break;
      }
      pids[forked++] = pid;
      if (L.ctl->stop.load(std::memory_order_relaxed) != 0) {  // as stress-ng, after each fork
        stopping = true;
        break;
      }
    }
    for (unsigned left = forked; left > 0;) {
      int status = 0;
      pid_t pid = ::waitpid(-1, &status, 0);  // exit order
      if (pid < 0) {
        if (errno == EINTR) continue;
        break;  // ECHILD: nothing left (cannot happen: every child exits)
      }
      --left;
      child_reaped(L, pid, status, pids, recs, forked, hint, counts);
    }
    slot->reaped.fetch_add(forked, std::memory_order_relaxed);
    stopping = stopping || L.ctl->stop.load(std::memory_order_relaxed) != 0;
  }
  if (L.record) {
    for (int d = 0; d <= L.n; ++d) {
      if (started[d]) L.lines[d].started.fetch_add(started[d], std::memory_order_relaxed);
    }
    L.lines[0].same_pu.fetch_add(counts.same_pu, std::memory_order_relaxed);
  }
  ::_exit(0);
}

}  // namespace schedrig::workloads::fork_internal
