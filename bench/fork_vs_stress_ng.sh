#!/usr/bin/env bash
# Fork storm, side by side: schedrig-agent's fork workload vs
#   stress-ng --fork N --fork-max M --taskset L --metrics-brief
# and vs the physical limit, a minimal pinned fork/_exit/waitpid C loop
# (bench/fork_raw.c), for every N in --workers and M in --fork-max; plus ours
# with --child-body stress-ng (children make stress-ng's calls, sched_yield
# included), which shows how much of the gap to stress-ng is its child body.
# Within each round the four run back to back and the order rotates from
# round to round (A B C D, B C D A, ...) so machine drift hits all of them.
# Prints per-round ops/s and, per (N, M), the medians and the median of the
# per-round ratios. Targets (issue 4): ours/stress-ng >= 1.00, ours/raw >= 0.95.
#
#   bench/fork_vs_stress_ng.sh [--workers 1,2,nproc] [--fork-max 1,4] [--taskset L]
#                              [--duration S] [--rounds R]
#
# All three count the same thing: children reaped per second of wall time
# (stress-ng: bogo-ops-per-second-real-time). Ours runs with its default
# placement recording on and --pin set, i.e. every creator on the whole
# cpulist like stress-ng --taskset.
# Needs: the agent (build/bin/schedrig-agent or $SCHEDRIG_AGENT), stress-ng,
# cc, python3.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh

workers="1,2,$(nproc)"; fork_max="1,4"; taskset=$(allowed_cpulist); duration=3; rounds=4
parse_flags "[--workers 1,2,nproc] [--fork-max 1,4] [--taskset L] [--duration S] [--rounds R]" workers fork-max taskset duration rounds -- "$@"
agent=$(bench_agent)
command -v stress-ng >/dev/null || { echo "stress-ng missing: apt-get install stress-ng" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
bench_cc "$tmp/fork_raw" bench/fork_raw.c

ours() {
  "$agent" stress fork --workers "$1" --fork-max "$2" --cpus "$taskset" --duration "$duration" \
    --json | json_field bogo_ops_per_s
}
ours_sngchild() {
  "$agent" stress fork --workers "$1" --fork-max "$2" --cpus "$taskset" --duration "$duration" \
    --child-body stress-ng --json | json_field bogo_ops_per_s
}
# stress-ng's figure, only from a run that counts: exit status 0 and none of
# the lines by which stress-ng says it does not (a "fail:" line, "metrics
# corrupted", a "failed:" or "metrics untrustworthy:" count above 0; the
# rules of agent/tools/stress_ng_output.h). Else it prints stress-ng's own
# lines and exits 1 (set -e: the caller's assignment fails too).
stressng() {
  local out status=0
  rm -f "$tmp/sng.yaml"
  out=$(stress-ng --fork "$1" --fork-max "$2" --taskset "$taskset" --timeout "${duration}s" \
    --metrics-brief --yaml "$tmp/sng.yaml" 2>&1) || status=$?
  local refusal='^stress-ng: (fail|error):|metrics corrupted|(failed|metrics untrustworthy): [1-9]'
  if ((status != 0)) || grep -qE "$refusal" <<<"$out" || [[ ! -s $tmp/sng.yaml ]]; then
    echo "stress-ng --fork $1 --fork-max $2 does not count (exit $status):" >&2
    grep -E "$refusal" <<<"$out" | head -5 >&2 || tail -3 <<<"$out" >&2
    return 1
  fi
  python3 -c 'import re,sys; t=open(sys.argv[1]).read(); print(re.search(r"bogo-ops-per-second-real-time: ([0-9.]+)", t).group(1))' "$tmp/sng.yaml"
}
raw() { "$tmp/fork_raw" "$1" "$2" "$taskset" "$duration"; }

echo "fork storm on cpus $taskset, ${duration}s per run, $rounds rounds; $(stress-ng --version | head -1); $(uname -r)"
tools=(ours ours_sngchild stressng raw)
summary=()
for n in $(tr ',' '\n' <<<"$workers" | awk '!seen[$0]++'); do
  for m in $(tr ',' '\n' <<<"$fork_max" | awk '!seen[$0]++'); do
    printf "\nN=%s M=%s\n%-6s %10s %12s %10s %10s %9s %9s\n" "$n" "$m" round ours \
      "ours+sngchild" stress-ng raw ours/sng ours/raw
    declare -A all=()
    rs=(); rr=()
    for r in $(seq 1 "$rounds"); do
      declare -A v=()
      for k in 0 1 2 3; do
        tool=${tools[$(( (r - 1 + k) % 4 ))]}
        v[$tool]=$($tool "$n" "$m")
        all[$tool]+="${v[$tool]} "
      done
      rs+=("$(ratio "${v[ours]}" "${v[stressng]}")"); rr+=("$(ratio "${v[ours]}" "${v[raw]}")")
      printf "%-6s %10.0f %12.0f %10.0f %10.0f %9s %9s\n" "$r" "${v[ours]}" "${v[ours_sngchild]}" \
        "${v[stressng]}" "${v[raw]}" "${rs[-1]}" "${rr[-1]}"
      unset v
    done
    summary+=("$(printf "%-4s %-4s %10.0f %12.0f %10.0f %10.0f %9.3f %9.3f" "$n" "$m" \
      "$(median ${all[ours]})" "$(median ${all[ours_sngchild]})" "$(median ${all[stressng]})" \
      "$(median ${all[raw]})" "$(median "${rs[@]}")" "$(median "${rr[@]}")")")
    unset all
  done
done
printf "\nmedians (ops/s) and median per-round ratios\n%-4s %-4s %10s %12s %10s %10s %9s %9s\n" N M \
  ours "ours+sngchild" stress-ng raw ours/sng ours/raw
printf "%s\n" "${summary[@]}"
