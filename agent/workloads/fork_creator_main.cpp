// schedrig-fork-creator FD INDEX: one fork-storm creator with a minimal
// address space (a static binary). The agent forks, sets the creator's
// affinity, process group, PR_SET_PDEATHSIG and signals, then execs this
// with the shared memory's fd; see fork_creator.h. Not for use by hand.
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <vector>

#include "agent/workloads/fork_creator.h"

int main(int argc, char** argv) {
  using namespace schedrig::workloads::fork_internal;
  if (argc != 3) return 2;
  const int fd = std::atoi(argv[1]);
  const unsigned index = static_cast<unsigned>(std::atoi(argv[2]));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || st.st_size < static_cast<off_t>(sizeof(Header))) return 3;
  void* base = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ | PROT_WRITE,
                      MAP_SHARED, fd, 0);
  if (base == MAP_FAILED) return 4;
  ::close(fd);
  Layout L = layout_at(base);
  if (!L.header || index >= L.header->workers) return 5;
  std::vector<std::int32_t> tables;
  run_creator(with_private_tables(L, tables), index);
}
