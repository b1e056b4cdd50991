#!/usr/bin/env bash
# aa-resample.sh BG_PERF DIR K N [REPS [BUDGETS [-- COMPARE-ARGS...]]] — the A/A
# resampling study (docs/performance.md, "unit of replication"): from the
# processes stored by aa-raw.sh in DIR (base-*.json and head-*.json, all of
# the same build, so exchangeable), N times draw 2K distinct processes at
# random (seeded by $RANDOM's seed: SEED env, default 1), keep the first REPS
# repetitions of each (default: all), call K of them base and K head, and run
# `bg-perf compare` on them.  Prints per draw the verdict, ratio and interval,
# then: the false alarms (fail), the inconclusive/pass counts, and how often
# the interval covers 1.0.  Writes only under DIR/resample.
set -uo pipefail
perf=$1 dir=$2 k=$3 n=$4 reps=${5:-0}
src=$(cd "$(dirname "$0")" && pwd)
budgets=${6:-$src/budgets.json}
shift $(( $# < 6 ? $# : 6 )); [ "${1:-}" = -- ] && shift
RANDOM=${SEED:-1}
w="$dir/resample"; rm -rf "$w"; mkdir -p "$w"
mapfile -t all < <(ls "$dir"/base-*.json "$dir"/head-*.json)
# trim FILE OUT: only the first REPS iteration rows (aggregate rows kept last)
trim() {
  if [ "$reps" = 0 ]; then cp "$1" "$2"; return; fi
  awk -v r="$reps" '
    /^    \{/ { buf = $0 "\n"; inrow = 1; keep = 1; next }
    inrow { buf = buf $0 "\n"; if ($0 ~ /"repetition_index":/) { v = $2; sub(/,/, "", v); if (v + 0 >= r && buf !~ /"aggregate"/) keep = 0 }
            if ($0 ~ /"run_type": "aggregate"/) keep = 1
            if ($0 ~ /^    \}/) { inrow = 0; if (keep) printf "%s", buf } ; next }
    { print }' "$1" >"$2"
}
fa=0 inc=0 pass=0 cover=0 done_=0
for i in $(seq 1 "$n"); do
  mapfile -t pick < <(for f in "${all[@]}"; do echo "$RANDOM $f"; done | sort -n | head -n $((2 * k)) | cut -d' ' -f2)
  args=()
  for j in $(seq 0 $((2 * k - 1))); do
    side=base; [ "$j" -ge "$k" ] && side=head
    trim "${pick[$j]}" "$w/$side-$j.json"
    args+=(--"$side" "$w/$side-$j.json")
  done
  line=$("$perf" compare "${args[@]}" --budgets "$budgets" "$@" 2>&1 | grep -m1 '^bg-perf: .*ratio')
  verdict=$(echo "$line" | sed -E 's/^bg-perf: [^:]+: ([a-z]+) .*/\1/')
  lo=$(echo "$line" | sed -E 's/.*\[([0-9.]+), ([0-9.]+)\].*/\1/') hi=$(echo "$line" | sed -E 's/.*\[([0-9.]+), ([0-9.]+)\].*/\2/')
  case "$verdict" in fail) fa=$((fa + 1)) ;; inconclusive) inc=$((inc + 1)) ;; *) pass=$((pass + 1)) ;; esac
  awk -v l="$lo" -v h="$hi" 'BEGIN { exit !(l <= 1 && h >= 1) }' && cover=$((cover + 1))
  done_=$((done_ + 1))
  echo "draw $i: ${line#bg-perf: }"
done
echo "SUMMARY $dir K=$k reps=${reps/#0/all} draws=$done_: fail $fa, inconclusive $inc, pass $pass; interval covers 1.0 in $cover"
