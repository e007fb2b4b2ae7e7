/*
 * The physical limit for a fork storm: N creator processes, each pinned to
 * the cpulist, loop fork M children that _exit(0) at once, then waitpid them
 * in order. Nothing else: no placement recording, no signal handling beyond
 * the defaults. Prints ops/s (children reaped per second of the run).
 *
 *   cc -O2 -o fork_raw bench/fork_raw.c
 *   fork_raw WORKERS FORK_MAX CPULIST SECONDS      e.g. fork_raw 2 1 0-1 3
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int parse_cpulist(const char* s, cpu_set_t* set) {
  CPU_ZERO(set);
  while (*s) {
    char* end;
    long a = strtol(s, &end, 10), b = a;
    if (end == s) return -1;
    if (*end == '-') b = strtol(end + 1, &end, 10);
    for (long c = a; c <= b; ++c) CPU_SET(c, set);
    s = *end == ',' ? end + 1 : end;
  }
  return 0;
}

struct shared {
  _Atomic unsigned long long ops;
  _Atomic int stop;
  _Atomic int go;
};

int main(int argc, char** argv) {
  if (argc != 5) {
    fprintf(stderr, "usage: %s WORKERS FORK_MAX CPULIST SECONDS\n", argv[0]);
    return 2;
  }
  int workers = atoi(argv[1]), fork_max = atoi(argv[2]);
  double seconds = atof(argv[4]);
  cpu_set_t set;
  if (workers < 1 || fork_max < 1 || parse_cpulist(argv[3], &set) != 0) return 2;
  struct shared* sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                           -1, 0);
  pid_t* pids = calloc(fork_max, sizeof *pids);
  pid_t* creators = calloc(workers, sizeof *creators);
  for (int i = 0; i < workers; ++i) {
    creators[i] = fork();
    if (creators[i] == 0) {
      sched_setaffinity(0, sizeof set, &set);
      while (!atomic_load(&sh->go)) usleep(100);
      unsigned long long ops = 0;
      while (!atomic_load_explicit(&sh->stop, memory_order_relaxed)) {
        int n = 0;
        for (; n < fork_max; ++n) {
          pid_t p = fork();
          if (p == 0) _exit(0);
          if (p < 0) break;
          pids[n] = p;
        }
        for (int k = 0; k < n; ++k) waitpid(pids[k], NULL, 0);
        ops += n;
      }
      atomic_fetch_add(&sh->ops, ops);
      _exit(0);
    }
  }
  double t0 = now();
  atomic_store(&sh->go, 1);
  usleep((useconds_t)(seconds * 1e6));
  atomic_store(&sh->stop, 1);
  for (int i = 0; i < workers; ++i) waitpid(creators[i], NULL, 0);
  double t1 = now();
  printf("%.1f\n", atomic_load(&sh->ops) / (t1 - t0));
  return 0;
}
