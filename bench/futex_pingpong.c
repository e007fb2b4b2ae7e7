/*
 * The physical limit for a wakeup round trip: two threads, each pinned to
 * one PU, hand a token back and forth through futexes (the same post/wait
 * protocol as schedrig's wakeup workload and schbench: compare-and-swap,
 * FUTEX_WAKE only when the peer sleeps, FUTEX_WAIT otherwise; no spinning).
 * Prints round trips per second (A -> B -> A), comparable to the wakeup
 * workload's requests_per_s with one message thread and one worker.
 *
 *   cc -O2 -pthread -o futex_pingpong bench/futex_pingpong.c
 *   futex_pingpong PU_A PU_B SECONDS          e.g. futex_pingpong 0 1 3
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

enum { BLOCKED = 0, RUNNING = 1 };

struct side {
  _Alignas(64) _Atomic unsigned word;
};

static struct side a, b;
static _Atomic int stop;
static int pu_a, pu_b;

static void post(struct side* s) {
  unsigned expected = BLOCKED;
  if (atomic_compare_exchange_strong(&s->word, &expected, RUNNING))
    syscall(SYS_futex, &s->word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void wait_posted(struct side* s) {
  for (;;) {
    unsigned expected = RUNNING;
    if (atomic_compare_exchange_strong(&s->word, &expected, BLOCKED)) return;
    syscall(SYS_futex, &s->word, FUTEX_WAIT_PRIVATE, BLOCKED, NULL, NULL, 0);
  }
}

static void pin(int pu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(pu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

static void* side_b(void* arg) {
  (void)arg;
  pin(pu_b);
  while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
    wait_posted(&b);
    post(&a);
  }
  return NULL;
}

int main(int argc, char** argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: %s PU_A PU_B SECONDS\n", argv[0]);
    return 2;
  }
  pu_a = atoi(argv[1]);
  pu_b = atoi(argv[2]);
  double seconds = atof(argv[3]);
  pthread_t tb;
  pthread_create(&tb, NULL, side_b, NULL);
  pin(pu_a);
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  unsigned long long n = 0;
  double elapsed = 0;
  for (;;) {
    post(&b);
    wait_posted(&a);
    if ((++n & 255) == 0) {
      clock_gettime(CLOCK_MONOTONIC, &t);
      elapsed = (t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9;
      if (elapsed >= seconds) break;
    }
  }
  atomic_store(&stop, 1);
  post(&b);
  pthread_join(tb, NULL);
  printf("%.1f\n", n / elapsed);
  return 0;
}
