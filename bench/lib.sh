# Shared by the bench scripts (sourced). Finds the agent, builds the C
# baselines into a temp dir, and does the arithmetic with python3.

# The agent binary: $SCHEDRIG_AGENT, else build/bin/schedrig-agent.
bench_agent() {
  local agent=${SCHEDRIG_AGENT:-build/bin/schedrig-agent}
  [[ -x $agent ]] || { echo "$agent missing: run scripts/build (or set SCHEDRIG_AGENT)" >&2; exit 2; }
  echo "$agent"
}

# bench_cc OUT SRC [flags...]: compiles a C baseline with -O2.
bench_cc() {
  local out=$1 src=$2; shift 2
  cc -O2 -o "$out" "$src" "$@" || { echo "cannot compile $src" >&2; exit 2; }
}

# json_field KEY: reads one JSON object on stdin, prints KEY.
json_field() { python3 -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1"; }

# median X...: the median of the numbers.
median() { python3 -c 'import statistics,sys; print(f"{statistics.median(map(float, sys.argv[1:])):.6g}")' "$@"; }

# ratio A B: A / B with 3 decimals.
ratio() { python3 -c 'import sys; print(f"{float(sys.argv[1]) / float(sys.argv[2]):.3f}")' "$1" "$2"; }

# The whole allowed cpulist of this process, e.g. "0-1".
allowed_cpulist() { awk '/^Cpus_allowed_list/ {print $2}' /proc/self/status; }

# parse_flags "USAGE" NAME... -- "$@": for each `--NAME VALUE` sets the
# shell variable NAME (dashes become underscores: --fork-max -> fork_max);
# anything else prints "usage: SCRIPT USAGE" and exits 2.
parse_flags() {
  local usage=$1; shift
  local names=()
  while [[ $1 != -- ]]; do names+=("$1"); shift; done
  shift
  while [[ $# -gt 0 ]]; do
    local known=0 n
    for n in "${names[@]}"; do
      if [[ $1 == "--$n" && $# -ge 2 ]]; then
        printf -v "${n//-/_}" '%s' "$2"; known=1; shift 2; break
      fi
    done
    (( known )) || { echo "usage: $0 $usage" >&2; exit 2; }
  done
}
