#!/usr/bin/env bash
# What the fork storm's placement recording costs: schedrig-agent stress fork
# with --placement-stats on vs off, same N, M and cpulist, alternating
# A B / B A. Prints per-round ops/s and CPU time per bogo op (perf stat
# task-clock, when perf works) and the medians of the per-round ratios.
# Target (issue 4): <= 2 % slower.
#
#   bench/fork_record_overhead.sh [--workers N] [--fork-max M] [--cpus L]
#                                 [--duration S] [--rounds R]
#
# Needs: the agent (build/bin/schedrig-agent or $SCHEDRIG_AGENT), python3; perf optional.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

workers=$(nproc); fork_max=1; cpus=$(allowed_cpulist); duration=3; rounds=10
parse_flags "[--workers N] [--fork-max M] [--cpus L] [--duration S] [--rounds R]" workers fork-max cpus duration rounds -- "$@"
agent=$(bench_agent)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# CPU time per bogo op (perf stat task-clock of the agent and every process
# it forks) is far less sensitive to a noisy machine than ops/s.
have_perf=0; perf stat -x, -e task-clock true >/dev/null 2>&1 && have_perf=1
run() {  # prints "OPS_PER_S CPU_US_PER_OP"
  local cmd=("$agent" stress fork --workers "$workers" --fork-max "$fork_max" --cpus "$cpus"
             --placement-stats "$1" --duration "$duration" --json)
  if (( have_perf )); then
    perf stat -x, -e task-clock -o "$tmp/perf" "${cmd[@]}" >"$tmp/out.json"
  else
    "${cmd[@]}" >"$tmp/out.json"; echo "nan,msec,task-clock" >"$tmp/perf"
  fi
  python3 - "$tmp/out.json" "$tmp/perf" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
ms = next(float(l.split(",")[0]) for l in open(sys.argv[2]) if "task-clock" in l)
print(j["bogo_ops_per_s"], ms * 1000 / j["bogo_ops"])
PY
}
echo "fork placement recording: workers=$workers fork_max=$fork_max cpus=$cpus ${duration}s x $rounds rounds"
printf "%-6s %12s %12s %9s %12s %12s %9s\n" round "on ops/s" "off ops/s" "off/on" "on us/op" \
  "off us/op" "on/off"
rs=(); cs=()
for r in $(seq 1 "$rounds"); do
  if (( r % 2 )); then a=($(run on)); b=($(run off)); else b=($(run off)); a=($(run on)); fi
  rs+=("$(ratio "${b[0]}" "${a[0]}")"); cs+=("$(ratio "${a[1]}" "${b[1]}")")
  printf "%-6s %12.0f %12.0f %9s %12.1f %12.1f %9s\n" "$r" "${a[0]}" "${b[0]}" "${rs[-1]}" \
    "${a[1]}" "${b[1]}" "${cs[-1]}"
done
python3 - "$(median "${rs[@]}")" "$(median "${cs[@]}")" <<'PY'
import sys
r, c = map(float, sys.argv[1:])
print(f"recording costs {100 * (r - 1):+.1f} % ops/s (median of per-round off/on - 1), "
      f"{100 * (c - 1):+.1f} % CPU per bogo op (median of per-round on/off - 1)")
PY
