// main() of a fuzz target in the normal build: replays every file of the
// directories (or files) named on the command line through
// LLVMFuzzerTestOneInput, in name order, so each committed corpus input,
// crash inputs included, is a ctest. Exit 0 when all ran; 2 when a path is
// missing or a directory holds no input (a corpus that vanished must not
// pass). A crash ends the process as it would under libFuzzer.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/fuzz_target.h"

namespace {

namespace fs = std::filesystem;

// The regular files `path` names: itself, or its directory's entries sorted.
std::vector<fs::path> inputs_of(const fs::path& path) {
  std::vector<fs::path> files;
  if (!fs::is_directory(path)) {
    if (fs::is_regular_file(path)) files.push_back(path);
    return files;
  }
  for (const fs::directory_entry& e : fs::directory_iterator(path)) {
    if (e.is_regular_file()) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR_OR_FILE...\n", argv[0]);
    return 2;
  }
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  for (int i = 1; i < argc; ++i) {
    const std::vector<fs::path> files = inputs_of(argv[i]);
    if (files.empty()) {
      std::fprintf(stderr, "%s: no input files there\n", argv[i]);
      return 2;
    }
    for (const fs::path& f : files) {
      const std::string bytes = read_bytes(f);
      std::printf("replay %s (%zu bytes)\n", f.c_str(), bytes.size());
      std::fflush(stdout);
      LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    }
    std::printf("replayed %zu input(s) from %s\n", files.size(), argv[i]);
  }
  return 0;
}
