#!/usr/bin/env bash
# Side by side: schedrig-agent's fork storm vs stress-ng --fork, same worker
# count, fork-max and duration, interleaved A B A B so machine drift hits both.
# Prints bogo ops/s per round and the median ratio ours/stress-ng.
#
#   bench/fork_vs_stress_ng.sh [--workers N] [--fork-max M] [--duration S] [--rounds R]
#
# Needs: build/bin/schedrig-agent (scripts/build), stress-ng, python3.
set -euo pipefail
cd "$(dirname "$0")/.."

workers=$(nproc); fork_max=1; duration=3; rounds=4
while [[ $# -gt 0 ]]; do
  case "$1" in
    --workers) workers=$2; shift 2 ;;
    --fork-max) fork_max=$2; shift 2 ;;
    --duration) duration=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    *) echo "usage: $0 [--workers N] [--fork-max M] [--duration S] [--rounds R]" >&2; exit 2 ;;
  esac
done
agent=build/bin/schedrig-agent
[[ -x $agent ]] || { echo "$agent missing: run scripts/build first" >&2; exit 2; }
command -v stress-ng >/dev/null || { echo "stress-ng missing: apt-get install stress-ng" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

ours() {
  "$agent" stress fork --workers "$workers" --fork-max "$fork_max" --duration "$duration" --json |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["bogo_ops_per_s"])'
}
theirs() {
  stress-ng --fork "$workers" --fork-max "$fork_max" --timeout "${duration}s" --metrics-brief \
    --yaml "$tmp/sng.yaml" >/dev/null 2>&1
  python3 -c 'import re,sys; t=open(sys.argv[1]).read(); print(re.search(r"bogo-ops-per-second-real-time: ([0-9.]+)", t).group(1))' "$tmp/sng.yaml"
}

echo "fork storm: workers=$workers fork_max=$fork_max duration=${duration}s rounds=$rounds ($(stress-ng --version | head -1))"
printf "%-6s %16s %16s %8s\n" round "schedrig ops/s" "stress-ng ops/s" ratio
ratios=()
for r in $(seq 1 "$rounds"); do
  if (( r % 2 )); then a=$(ours); b=$(theirs); else b=$(theirs); a=$(ours); fi
  ratio=$(python3 -c "print(f'{$a/$b:.2f}')")
  ratios+=("$ratio")
  printf "%-6s %16.0f %16.0f %8s\n" "$r" "$a" "$b" "$ratio"
done
python3 -c "import statistics,sys; print('median ratio schedrig/stress-ng:', statistics.median(map(float, sys.argv[1:])))" "${ratios[@]}"
