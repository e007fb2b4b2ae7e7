#!/usr/bin/env bash
# Built-in wakeup vs schbench on the same layout (issue 16 item 3): for each
# (message threads m, workers per message thread t) the agent runs its own
# `wakeup` workload and schbench itself as the external `schbench` case
# (`-L -m M -t T -n 0 -s 0 -M auto`, run time and pinning set by schedrig),
# on the same PUs, in alternating order (A B, B A), and prints per layout
# the medians and the ratios ours / schbench of requests/s and of the
# wakeup latency p99, ours both as its own metric (requests whose worker
# slept) and as schbench counts (`sbv`: plus early replies of >= 1 us).
# Targets: RPS ratio 0.9-1.1, p99 ratio 0.8-1.25.
# Layouts: (1,2) (1,8) (2,4) and the seed's shape (schbench -m 4 -t 256 on
# a 160-PU box: ~6.4 workers per PU) scaled to this box.
#
#   SCHBENCH=/usr/local/bin/schbench bench/wakeup_vs_schbench.sh [--duration S] [--rounds R]
#       [--cpus LIST] [--layouts 'M,T M,T']   (default: the four above)
#
# $SCHBENCH must be a root-owned binary schedrig trusts (docs/workloads.md
# "External tools": build masoncl/schbench, install it 0755 root-owned);
# without it the script says so and exits 0 (skipped).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

duration=4; rounds=4; cpus=""; layouts=""
parse_flags "[--duration S] [--rounds R] [--cpus LIST] [--layouts 'M,T M,T']" duration rounds cpus layouts -- "$@"
if [[ -z ${SCHBENCH:-} ]]; then
  echo "skipped: set SCHBENCH to a schbench binary (docs/workloads.md \"External tools\")"
  exit 0
fi
agent=$(bench_agent)
[[ -n $cpus ]] || cpus=$(allowed_cpulist)
n_pus=$(python3 -c 'import sys; n=0
for part in sys.argv[1].split(","):
    a,_,b = part.partition("-"); n += int(b or a) - int(a) + 1
print(n)' "$cpus")
seed_m=$(( (n_pus + 39) / 40 ))
seed_t=$(( (n_pus * 64 + 5 * seed_m) / (10 * seed_m) ))  # ~6.4 workers per PU
if [[ -n $layouts ]]; then read -r -a layouts <<<"$layouts"; else layouts=("1,2" "1,8" "2,4" "$seed_m,$seed_t"); fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# run WHICH M T: one run's "requests_per_s wakeup_latency_p99_us wakeup_latency_p50_us
# schbench-view p99" (ours: schbench_wakeup_latency_p99_us, the requests that
# slept plus the early replies of >= 1 us, as schbench's histogram holds them).
run() {
  local which=$1 m=$2 t=$3 out="$tmp/run.json"
  if [[ $which == ours ]]; then
    "$agent" stress wakeup --message-threads "$m" --workers-per-message "$t" --cpus "$cpus" \
      --duration "$duration" --json >"$out"
  else
    "$agent" stress schbench --args="-L -m $m -t $t -n 0 -s 0 -M auto" --cpus "$cpus" \
      --duration "$duration" --tool "schbench=$SCHBENCH" --json >"$out"
  fi
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1]))
print(j["requests_per_s"], j["wakeup_latency_p99_us"], j["wakeup_latency_p50_us"],
      j.get("schbench_wakeup_latency_p99_us", j["wakeup_latency_p99_us"]))' "$out"
}

echo "built-in wakeup vs schbench ($SCHBENCH) on PUs $cpus, ${duration}s runs, $rounds rounds, $(uname -r)"
printf "%-8s %12s %12s %6s %9s %9s %6s %9s %6s %8s %8s\n" "m,t" "ours req/s" "sb req/s" ratio \
  "ours p99" "sb p99" ratio "ours sbv" ratio "ours p50" "sb p50"
for layout in "${layouts[@]}"; do
  m=${layout%,*}; t=${layout#*,}
  o_rps=(); s_rps=(); o_p99=(); s_p99=(); o_p50=(); s_p50=(); o_sbv=()
  for r in $(seq 1 "$rounds"); do
    order=(ours schbench); (( r % 2 == 0 )) && order=(schbench ours)
    for which in "${order[@]}"; do
      read -r rps p99 p50 sbv < <(run "$which" "$m" "$t")
      if [[ $which == ours ]]; then o_rps+=("$rps"); o_p99+=("$p99"); o_p50+=("$p50"); o_sbv+=("$sbv")
      else s_rps+=("$rps"); s_p99+=("$p99"); s_p50+=("$p50"); fi
    done
  done
  orps=$(median "${o_rps[@]}"); srps=$(median "${s_rps[@]}")
  op99=$(median "${o_p99[@]}"); sp99=$(median "${s_p99[@]}"); osbv=$(median "${o_sbv[@]}")
  printf "%-8s %12.0f %12.0f %6s %9s %9s %6s %9s %6s %8s %8s\n" "$layout" "$orps" "$srps" \
    "$(ratio "$orps" "$srps")" "$op99" "$sp99" "$(ratio "$op99" "$sp99")" \
    "$osbv" "$(ratio "$osbv" "$sp99")" "$(median "${o_p50[@]}")" "$(median "${s_p50[@]}")"
done
