#!/usr/bin/env bash
# aa-raw.sh [--duet [--duet-cpus N]] [--until EPOCH] EXE OUTDIR FILTER N REPS MIN_TIME — raw
# A/A material for the resampling study (docs/performance.md, "unit of
# replication", "Suite false-alarm rate"): N rounds, each one base and one
# head process of the same EXE (perf-bench).
#   interleaved (default): one process at a time, in a random order per round
#     (AB or BA), each with a random environment padding of 0..4095 bytes
#     (BG_PERF_PAD, as bg-perf ab does) and ASLR left as the kernel has it.
#     Writes OUTDIR/{base,head}-NNN.json (Google Benchmark JSON, REPS
#     repetitions of MIN_TIME s each).
#   --duet: each round is one `bg-perf ab --duet --rounds 1` (bg-perf beside
#     EXE): base and head at the same time, pinned as --duet-cpus says, as the
#     duet PR judge runs them (perf_duet.h), one process per plan class
#     (min_time and threadedness; a threaded class's pair runs in turn).
#     MIN_TIME "budget": each benchmark's budget min_time (budgets.json), as
#     the PR judge plans it.  Writes OUTDIR/{base,head}-NNN-C.json (round NNN,
#     class C: base-NNN-* and head-NNN-* are pair NNN; perf-aa-resample
#     --paired) and OUTDIR/bg-perf.log (bg-perf's output per round).
#   --duet-cpus N: bg-perf ab's --duet-cpus (1: both processes of a pair on
#     one CPU, its default; 2: one CPU each).
#   --until EPOCH: start no round after this time (date +%s), e.g. the end of
#     a quiet window; the rounds done are kept.
# Both write OUTDIR/load.txt (uptime before and after).  A study, not a test.
# Exit: 0 done; 2 usage (fewer than 6 arguments, EXE not executable, N or
# REPS not a whole number, MIN_TIME not seconds (--duet: or "budget"), no
# bg-perf beside EXE with --duet: one line, study-lib.sh); 3 a duet round
# wrote no JSON; else the first failing command's.
set -euo pipefail
src=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=suites/perf_budgets/study/study-lib.sh
source "$src/study-lib.sh"
duet=0 until=0 dcpus=()
while [ $# -gt 0 ]; do
  case "$1" in
    --duet) duet=1; shift ;;
    --duet-cpus) bg_need_value --duet-cpus $# "${2-}"; dcpus=(--duet-cpus "$2"); shift 2 ;;
    --until) bg_need_value --until $# "${2-}"; until=$2; study_count --until "$until"; shift 2 ;;
    *) break ;;
  esac
done
study_help_or_usage 6 "[--duet [--duet-cpus N]] [--until EPOCH] EXE OUTDIR FILTER N REPS MIN_TIME" "$@"
exe=$1 out=$2 filter=$3 n=$4 reps=$5 mt=$6
[ "$duet" = 1 ] || [ -z "${dcpus[*]-}" ] || bg_die "--duet-cpus: only with --duet"
[ -f "$exe" ] && [ -x "$exe" ] || bg_die "EXE '$exe': not an executable file (e.g. a build's perf-bench)"
study_count N "$n"
study_count REPS "$reps"
[[ "$mt" =~ ^[0-9]*\.?[0-9]+$ ]] || { [ "$duet" = 1 ] && [ "$mt" = budget ]; } ||
  bg_die "MIN_TIME: '$mt' is not a number of seconds (--duet: or budget)"
bgperf=$(dirname "$exe")/bg-perf
[ "$duet" = 0 ] || [ -x "$bgperf" ] || bg_die "--duet: no bg-perf beside EXE ($bgperf): it runs the pairs"
mkdir -p "$out"
uptime >"$out/load.txt"
if [ "$duet" = 1 ]; then
  jq '.defaults.max_reruns = 0 | .defaults.seq_looks = 0' "$src/../budgets.json" >"$out/budgets-noreruns.json"
  mtopt=(); [ "$mt" = budget ] || mtopt=(--min-time "$mt")
fi
for r in $(seq -f %03g 0 $((n - 1))); do
  if [ "$until" != 0 ] && [ "$(date +%s)" -ge "$until" ]; then
    echo "aa-raw: --until reached after $((10#$r)) round(s)" | tee -a "$out/load.txt"; break
  fi
  if [ "$duet" = 1 ]; then
    rm -rf "$out/w"
    # bg-perf's exit (1: its one-pair verdict) is not the recorder's concern; no JSON is
    rc=0
    "$bgperf" ab --duet ${dcpus[@]+"${dcpus[@]}"} --base-exe "$exe" --head-exe "$exe" --filter "$filter" --rounds 1 --reps "$reps" \
      ${mtopt[@]+"${mtopt[@]}"} --seed "$((7919 * 10#$r + RANDOM))" --budgets "$out/budgets-noreruns.json" \
      --work-dir "$out/w" >>"$out/bg-perf.log" 2>&1 || rc=$?
    ls "$out"/w/base-000-*.json >/dev/null 2>&1 ||
      { echo "buildgate: aa-raw: round $r: bg-perf wrote no JSON (exit $rc): $out/bg-perf.log" >&2; exit 3; }
    for f in "$out"/w/{base,head}-000-*.json; do
      b=$(basename "$f"); mv "$f" "$out/${b%%-*}-$r-${b##*-}"
    done
    continue
  fi
  if [ $((RANDOM % 2)) = 0 ]; then order="base head"; else order="head base"; fi
  for side in $order; do
    pad=$(head -c $((RANDOM % 4096)) /dev/zero | tr '\0' x)
    env BG_PERF_PAD="$pad" "$exe" --benchmark_filter="$filter" --benchmark_repetitions="$reps" \
      --benchmark_min_time="$mt" --benchmark_out="$out/$side-$r.json" --benchmark_out_format=json >/dev/null
  done
done
rm -rf "$out/w"
uptime >>"$out/load.txt"
