#include <cstdio>
#include <cstdlib>

#include "fuzz/fuzz_target.h"

namespace schedrig::fuzz {

void broken(const char* what) {
  std::fprintf(stderr, "fuzz: invariant broken: %s\n", what);
  std::abort();
}

}  // namespace schedrig::fuzz
