#!/usr/bin/env bash
# band-scan.sh [--paired] BINDIR KEY RE "BANDS" "SCALES" K DRAWS DIR... — what a band costs
# and buys, from stored A/A pools (docs/performance.md "Suite false-alarm
# rate"): for each band b in BANDS, a copy of budgets.json whose "benchmarks"
# entry KEY (e.g. 'randomx/*/*/hash/') has band b, then perf-aa-resample on the pools
# DIR... (K processes per side, DRAWS draws, 3 repetitions, reruns as
# budgets.json's max_reruns):
#   the A/A suite fail rate (any benchmark fails) with its 95 % Clopper-Pearson
#   interval, and for each X in SCALES the fail rate of the benchmarks
#   matching RE when only they are X times slower (--head-scale X --scale-only RE).
# --paired: the duet judge on pools of pairs (perf-aa-resample --paired; K =
# pairs per draw, aa-raw.sh --duet pools).
# Prints one line per band.  Writes only BINDIR/band-scan/ (a directory per
# run, so that scans in parallel do not overwrite each other's budgets).
# A study, not a test.
# Exit: 0 done; 2 usage (fewer than 8 arguments, a BINDIR without
# perf-aa-resample, K or DRAWS not a whole number, a DIR that is not a
# directory: one line, study-lib.sh); else perf-aa-resample's or jq's.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)  # the suite folder
# shellcheck source=suites/perf_budgets/study/study-lib.sh
source "$src/study/study-lib.sh"
paired=(); [ "${1:-}" = --paired ] && { paired=(--paired); shift; }
study_help_or_usage 8 '[--paired] BINDIR KEY RE "BANDS" "SCALES" K DRAWS DIR...' "$@"
bin=$1 key=$2 re=$3 bands=$4 scales=$5 k=$6 draws=$7; shift 7
study_bindir "$bin" perf-aa-resample
study_count K "$k" 2
study_count DRAWS "$draws"
study_needs jq
for d in "$@"; do [ -d "$d" ] || bg_die "DIR '$d': not a directory (an A/A pool of aa-raw.sh)"; done
w="$bin/band-scan/$$"; mkdir -p "$w"
dirs=(); for d in "$@"; do dirs+=(--dir "$d"); done
reruns=$(jq '.defaults.max_reruns // 2' "$src/budgets.json")
for b in $bands; do
  jq --arg k "$key" --argjson b "$b" '.benchmarks[$k].band = $b' "$src/budgets.json" >"$w/budgets-$b.json"
  run=("$bin/perf-aa-resample" ${paired[@]+"${paired[@]}"} "${dirs[@]}" --k "$k" --draws "$draws" --reps 3 --reruns "$reruns" --budgets "$w/budgets-$b.json")
  line="band $b: A/A suite $("${run[@]}" | sed -n 's/^  suite fail rate: //p')"
  for x in $scales; do
    hit=$("${run[@]}" --head-scale "$x" --scale-only "$re" | grep -E "^  [^ ]+: fail " |
      awk -v re="$re" '{ n = $1; sub(/:$/, "", n) } n ~ re { print n " " $3 }' | head -n 1)
    line="$line; x$x: ${hit#* }"
  done
  echo "$line"
done
