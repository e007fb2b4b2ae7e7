#!/usr/bin/env bash
# Builds and runs bench/sampler_overhead (the live sampler's own CPU time and
# RSS at 1 and 10 Hz on this machine's /proc and a fake 160-PU tree; issue 6
# targets <= 0.1 % of one CPU at 1 Hz and <= 1 % at 10 Hz on the real machine).
# Arguments go to the binary (see the header of bench/sampler_overhead.cpp).
#
#   bench/sampler_overhead.sh [--seconds S] [--hz LIST] [--tree real|fake160|both]
#                             [--pus N] [--profile N] [--json]
#
# Build dir: $SCHEDRIG_BENCH_BUILD, else build-bench (the `bench` preset's).
# Exit status 3: a real-machine figure missed its target.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${SCHEDRIG_BENCH_BUILD:-build-bench}
[[ -f $build/CMakeCache.txt ]] ||
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DSCHEDRIG_BENCH=ON >/dev/null
cmake --build "$build" -j2 --target sampler_overhead >/dev/null
exec "$build/bin/sampler_overhead" "$@"
