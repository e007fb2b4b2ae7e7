#!/usr/bin/env bash
# Wakeup storm, side by side: schedrig-agent's wakeup workload with one
# message thread and one worker (message thread on PU A, worker on PU B, as
# schbench -m 1 -t 1 -M auto would place them) vs the physical limit, a raw
# two-thread futex ping-pong pinned to the same two PUs
# (bench/futex_pingpong.c). One request of ours is one round trip there:
# worker posts the message thread, which wakes the worker. Rounds alternate
# A B / B A; prints per-round rates and the median ratio. Target (issue 4):
# ours/raw >= 0.80. For orientation it also runs `perf bench sched
# messaging` and `hackbench` (threads, one group) on the same two PUs when
# they are installed (apt-get install linux-perf rt-tests).
#
#   bench/wakeup_limit.sh [--cpus A,B] [--duration S] [--rounds R]
#
# Needs: the agent (build/bin/schedrig-agent or $SCHEDRIG_AGENT), cc, python3.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

cpus=""; duration=3; rounds=6
parse_flags "[--cpus A,B] [--duration S] [--rounds R]" cpus duration rounds -- "$@"
if [[ -z $cpus ]]; then
  cpus=$(python3 -c 'import os; c=sorted(os.sched_getaffinity(0)); print(f"{c[0]},{c[1]}" if len(c) > 1 else f"{c[0]},{c[0]}")')
fi
pu_a=${cpus%,*}; pu_b=${cpus#*,}
agent=$(bench_agent)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bench_cc "$tmp/futex_pingpong" bench/futex_pingpong.c -pthread

ours() {
  "$agent" stress wakeup --message-threads 1 --workers-per-message 1 --cpus "$pu_a,$pu_b" \
    --duration "$duration" --json >"$tmp/ours.json"
  json_field requests_per_s <"$tmp/ours.json"
}
raw() { "$tmp/futex_pingpong" "$pu_a" "$pu_b" "$duration"; }

echo "wakeup round trips: message thread / thread A on PU $pu_a, worker / thread B on PU $pu_b, ${duration}s per run; $(uname -r)"
printf "%-6s %14s %14s %8s %12s %12s\n" round "ours req/s" "raw trips/s" ratio "wake p50 us" "wake p99 us"
a_all=(); b_all=(); rs=()
for r in $(seq 1 "$rounds"); do
  if (( r % 2 )); then a=$(ours); b=$(raw); else b=$(raw); a=$(ours); fi
  a_all+=("$a"); b_all+=("$b"); rs+=("$(ratio "$a" "$b")")
  printf "%-6s %14.0f %14.0f %8s %12s %12s\n" "$r" "$a" "$b" "${rs[-1]}" \
    "$(json_field wakeup_latency_p50_us <"$tmp/ours.json")" "$(json_field wakeup_latency_p99_us <"$tmp/ours.json")"
done
printf "median: ours %.0f req/s, raw %.0f trips/s, median ratio ours/raw %s\n" \
  "$(median "${a_all[@]}")" "$(median "${b_all[@]}")" "$(median "${rs[@]}")"

# Orientation only: different models (20 senders x 20 receivers per group
# over sockets), reported as messages per second on the same two PUs.
loops=2000
if perf bench sched messaging -t -g 1 -l 10 >/dev/null 2>&1; then
  t=$(taskset -c "$pu_a,$pu_b" perf bench sched messaging -t -g 1 -l "$loops" 2>/dev/null |
    awk '/Total time/ {print $3}')
  python3 -c "import sys; t=float(sys.argv[1]); print(f'perf bench sched messaging -t -g 1 -l {sys.argv[2]}: {t:.3f} s, {400*int(sys.argv[2])/t:,.0f} messages/s')" "$t" "$loops"
else
  echo "perf bench sched messaging: not available (apt-get install linux-perf)"
fi
if command -v hackbench >/dev/null; then
  t=$(taskset -c "$pu_a,$pu_b" hackbench -T -g 1 -l "$loops" 2>/dev/null | awk '/^Time:/ {print $2}')
  python3 -c "import sys; t=float(sys.argv[1]); print(f'hackbench -T -g 1 -l {sys.argv[2]}: {t:.3f} s, {400*int(sys.argv[2])/t:,.0f} messages/s')" "$t" "$loops"
else
  echo "hackbench: not available (apt-get install rt-tests)"
fi
