#!/usr/bin/env bash
# aa-raw.sh EXE OUTDIR FILTER N REPS MIN_TIME — raw A/A material for the
# resampling study (docs/performance.md, "unit of replication"): N rounds, each
# one base and one head process of the same EXE, in a random order per round
# (AB or BA), each with a random environment padding of 0..4095 bytes
# (BG_PERF_PAD, as bg-perf ab does) and ASLR left as the kernel has it.  Writes
# OUTDIR/{base,head}-NNN.json (Google Benchmark JSON, REPS repetitions of
# MIN_TIME s each) and OUTDIR/load.txt (uptime before and after).
# Exit: 0 done; 2 usage (fewer than 6 arguments, EXE not executable, N or
# REPS not a whole number, MIN_TIME not seconds: one line, study-lib.sh);
# else the first failing command's.
set -euo pipefail
src=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=suites/perf_budgets/study-lib.sh
source "$src/study-lib.sh"
study_help_or_usage 6 "EXE OUTDIR FILTER N REPS MIN_TIME" "$@"
exe=$1 out=$2 filter=$3 n=$4 reps=$5 mt=$6
[ -f "$exe" ] && [ -x "$exe" ] || study_die "EXE '$exe': not an executable file (e.g. a build's perf-bench)"
study_count N "$n"
study_count REPS "$reps"
[[ "$mt" =~ ^[0-9]*\.?[0-9]+$ ]] || study_die "MIN_TIME: '$mt' is not a number of seconds"
mkdir -p "$out"
uptime >"$out/load.txt"
for r in $(seq -f %03g 0 $((n - 1))); do
  if [ $((RANDOM % 2)) = 0 ]; then order="base head"; else order="head base"; fi
  for side in $order; do
    pad=$(head -c $((RANDOM % 4096)) /dev/zero | tr '\0' x)
    env BG_PERF_PAD="$pad" "$exe" --benchmark_filter="$filter" --benchmark_repetitions="$reps" \
      --benchmark_min_time="$mt" --benchmark_out="$out/$side-$r.json" --benchmark_out_format=json >/dev/null
  done
done
uptime >>"$out/load.txt"
