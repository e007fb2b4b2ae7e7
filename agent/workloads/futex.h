// Futex post/wait in the schbench style (schbench.c fpost/fwait): a 32-bit
// word is kBlocked while its owner sleeps or is about to, kRunning once
// posted. Posting is a compare-and-swap and a FUTEX_WAKE only when the owner
// was blocked, so a post to a running thread costs one atomic; waiting never
// spins. Words live in one process (FUTEX_PRIVATE) unless noted.
#pragma once

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdint>

namespace schedrig::workloads {

inline constexpr std::uint32_t kBlocked = 0;
inline constexpr std::uint32_t kRunning = 1;

inline long futex_call(std::atomic<std::uint32_t>* word, int op, std::uint32_t val) {
  return ::syscall(SYS_futex, reinterpret_cast<std::uint32_t*>(word), op, val, nullptr, nullptr, 0);
}

// Sets *word to kRunning; wakes its one waiter if it was kBlocked.
inline void futex_post(std::atomic<std::uint32_t>* word) {
  std::uint32_t expected = kBlocked;
  if (word->compare_exchange_strong(expected, kRunning)) futex_call(word, FUTEX_WAKE_PRIVATE, 1);
}

// Sleeps until *word is posted, then sets it back to kBlocked. The owner sets
// *word = kBlocked *before* publishing that it waits, so a post that lands in
// between is never lost. Returns whether it slept: false when the post had
// landed before the owner got to sleep (no wakeup happened).
inline bool futex_wait_posted(std::atomic<std::uint32_t>* word) {
  bool slept = false;
  for (;;) {
    std::uint32_t expected = kRunning;
    if (word->compare_exchange_strong(expected, kBlocked)) return slept;
    slept = futex_call(word, FUTEX_WAIT_PRIVATE, kBlocked) == 0 || slept;
  }
}

// Shared (cross-process) wait until *word != value; for start gates.
inline void futex_wait_shared(std::atomic<std::uint32_t>* word, std::uint32_t value) {
  while (word->load(std::memory_order_acquire) == value) futex_call(word, FUTEX_WAIT, value);
}

// Wakes every waiter of a shared (cross-process) word.
inline void futex_wake_all_shared(std::atomic<std::uint32_t>* word) {
  futex_call(word, FUTEX_WAKE, INT_MAX);
}

// Wakes every waiter of a process-private word.
inline void futex_wake_all(std::atomic<std::uint32_t>* word) {
  futex_call(word, FUTEX_WAKE_PRIVATE, INT_MAX);
}

// Private wait until *word != value.
inline void futex_wait_while(std::atomic<std::uint32_t>* word, std::uint32_t value) {
  while (word->load(std::memory_order_acquire) == value)
    futex_call(word, FUTEX_WAIT_PRIVATE, value);
}

}  // namespace schedrig::workloads
