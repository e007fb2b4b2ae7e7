// Inside the fork storm (fork_storm.h): the shared-memory layout and the
// creator/child loop. Compiled into the agent (creators that stay copies of
// the agent) and into schedrig-fork-creator, a small static helper each
// creator execs so that its address space, which every fork copies and every
// exit tears down, is a dozen mappings instead of the agent's ~80 (the
// difference is most of the gap to a minimal fork loop).
//
// Everything here runs in creator and child processes: async-signal-safe
// calls only, no allocation in the loop.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <vector>

namespace schedrig::workloads::fork_internal {

inline constexpr std::uint64_t kMagic = 0x6b726f6667697273ULL;  // "srigfork"
// Bumped with every change to the shared layout below, so a helper from
// another build refuses the memory instead of misreading it.
inline constexpr std::uint32_t kLayoutVersion = 2;

// Agent <-> creators: start gate, stop flag, readiness.
struct Control {
  alignas(64) std::atomic<std::uint32_t> go{0};  // futex word: 0 wait, 1 start
  alignas(64) std::atomic<std::uint32_t> stop{0};
  alignas(64) std::atomic<std::uint32_t> ready{0};  // creators waiting at the gate
};

// One cache line per creator so counting does not bounce lines between PUs.
struct alignas(64) CreatorSlot {
  std::atomic<std::uint64_t> reaped{0};
  std::atomic<std::uint64_t> failures{0};
  std::atomic<int> setup_errno{0};  // errno of the failed setup step
  std::atomic<int> setup_step{0};   // kStepAffinity or kStepExec
};
inline constexpr int kStepAffinity = 1;
inline constexpr int kStepExec = 2;

// Per PU of the placement (dense index into cpus; the last line stands for
// "a PU outside the placement"), one cache line, written by the children that
// start there and by the creators forking there (fork_storm.h: collisions).
struct alignas(64) PuLine {
  std::atomic<std::int32_t> alive{0};    // our children started here, not yet reaped
  std::atomic<std::int32_t> forking{0};  // our creators inside fork(2) from here
  std::atomic<std::uint64_t> started{0};
  std::atomic<std::uint64_t> same_pu{0};
  std::atomic<std::uint64_t> collisions{0};
  std::atomic<std::uint64_t> collisions_llc{0};
};

// At offset 0 of the shared memory: the shapes and where each part lives,
// so a process that maps the memory at another address finds everything.
struct Header {
  std::uint64_t magic = kMagic;
  std::uint32_t version = kLayoutVersion;
  std::uint32_t header_bytes = sizeof(Header);
  std::uint64_t total_bytes = 0;
  std::uint32_t workers = 0;
  std::uint32_t fork_max = 0;
  std::int32_t n = 0;                 // PUs in the placement
  std::int32_t max_os = 0;            // largest PU OS index in it
  std::uint32_t record = 0;           // placement recording on
  std::uint32_t per_cpu = 0;          // no other PU is allowed to a child
  std::uint32_t stress_ng_child = 0;  // children make stress-ng 0.15's calls before exiting
  std::uint64_t ctl = 0, slots = 0, lines = 0, dense_of = 0;  // byte offsets
  std::uint64_t node_d = 0, llc_d = 0, rec = 0;               // 0 = absent
  // Per creator, `scratch_stride` bytes apart: pid_t pids[fork_max], then at
  // `scratch_started` std::uint64_t started[n + 1]. A creator's working
  // memory lives here, in a shared mapping, because fork(2) write-protects
  // every private page and the creator's next write to each would fault,
  // once per fork.
  std::uint64_t scratch = 0, scratch_stride = 0, scratch_started = 0;
};

// Pointers into one mapping of the shared memory.
struct Layout {
  const Header* header = nullptr;
  Control* ctl = nullptr;
  CreatorSlot* slots = nullptr;
  PuLine* lines = nullptr;           // n + 1
  std::int32_t* dense_of = nullptr;  // by PU OS index, max_os + 1 entries, -1 = not ours
  std::int32_t* node_d = nullptr;    // by dense index, -1 unknown; nullptr without a map
  std::int32_t* llc_d = nullptr;
  std::int32_t* rec = nullptr;  // workers * fork_max; only with more than kMaxDenseExit PUs
  char* scratch = nullptr;      // Header::scratch
  int n = 0;
  int max_os = 0;
  bool record = false;
  bool per_cpu = false;
  bool stress_ng_child = false;
};

// A child reports its dense PU index d and whether it is its creator's PU
// through its exit status, 1 + d + kSameBit * same (so d <= kMaxDenseExit);
// with more PUs it writes d | kRecSame * same to `rec` and exits
// kExitSeeRecord. The only shared memory a child writes is its PU's `alive`
// (and `collisions`, rarely): creators count the rest privately.
inline constexpr unsigned kMaxDenseExit = 126;
inline constexpr int kSameBit = 127;
inline constexpr int kExitSeeRecord = 255;
inline constexpr std::int32_t kRecSame = 1 << 30;

// The layout of a mapping whose header is at `base`; nullptr fields when the
// header is not ours (wrong magic, version or size).
Layout layout_at(void* base);

// `L` with its read-only tables (dense_of, node_d, llc_d) copied into
// `storage`, private memory of the caller. Call it before forking: fork
// copies the page tables of private memory, so a child reads the copy
// without a page fault, where the shared original would cost it one.
Layout with_private_tables(const Layout& L, std::vector<std::int32_t>& storage);

// Creator `index`: counts itself ready, waits for the start gate, then loops
// fork / reap until the stop flag, adds its own per-PU counts (scratch) to
// the shared lines, and exits. The caller has already set its affinity.
[[noreturn]] void run_creator(const Layout& L, unsigned index);

}  // namespace schedrig::workloads::fork_internal
