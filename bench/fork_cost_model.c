/*
 * Why stress-ng --fork counts fewer bogo ops/s than schedrig's fork storm:
 * a minimal fork/_exit/waitpid loop with stress-ng's two extra costs toggled.
 *   bit 1: the child first makes stress-ng 0.15's calls (setsid, vhangup,
 *          getpid, getpgid, four setpgid; stress-fork.c)
 *   bit 4: the child then calls sched_yield, as every stress-ng child does
 *   bit 2: the parent first adds 150 mappings (75 regions, each split in two
 *          by mprotect, one dirty page each): about the difference between
 *          stress-ng's address space (~170 mappings) and a minimal loop's (~25)
 * Runs N forks and exits; measure it with perf stat / time:
 *
 *   cc -O2 -o fork_cost_model bench/fork_cost_model.c
 *   for m in 0 1 2 4 7; do perf stat -e task-clock taskset -c 0-1 ./fork_cost_model $m 3000; done
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  int mode = atoi(argv[1]);
  long n = atol(argv[2]);
  if (mode & 2) {
    for (int i = 0; i < 75; ++i) {
      char* p = mmap(0, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      p[0] = 1;
      mprotect(p + 4096, 4096, PROT_READ); /* two mappings each, one dirty page */
    }
  }
  for (long k = 0; k < n; ++k) {
    pid_t p = fork();
    if (p == 0) {
      if (mode & 1) {
        if (setsid() != -1) vhangup();
        setpgid(0, 0);
        pid_t me = getpid();
        setpgid(me, getpgid(me));
        setpgid(0, -1);
        setpgid(-1, 0);
      }
      if (mode & 4) sched_yield();
      _exit(0);
    }
    waitpid(p, NULL, 0);
  }
  return 0;
}
