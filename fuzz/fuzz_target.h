// The entry point every fuzz/ target defines (libFuzzer's interface,
// https://llvm.org/docs/LibFuzzer.html "Fuzz Target"): called once per
// input with `size` bytes at `data`; returns 0. A crash, a sanitizer report
// or an escaping exception is a finding. In the normal build replay_main.cpp
// calls it for every file of the target's corpus.
#pragma once

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

// Optional, called once before the first input (libFuzzer's and
// replay_main.cpp's main both call it when a target defines it).
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace schedrig::fuzz {

// A broken invariant of the code under test: prints `what` and aborts, so
// libFuzzer keeps the input (and the replay test fails).
[[noreturn]] void broken(const char* what);

// broken(what) unless `ok`.
inline void require(bool ok, const char* what) {
  if (!ok) broken(what);
}

// Every spdlog message of the code under test is formatted (so its
// formatting is fuzzed too) and dropped: a target that logs per input would
// spend its time on stderr.
void quiet_logs();

}  // namespace schedrig::fuzz
