#!/usr/bin/env bash
# study.sh BINDIR [N [BUDGETS]] — the figures of docs/performance.md (a benchmark, not a test):
#   1. false-alarm rate: N (default 20) A/A suite comparisons (bg-perf ab, the
#      perf.ab.aa_synth_aes selection, bg-perf's automatic plan: processes,
#      repetitions and min_time as the PR judge), counting runs with any `fail`;
#   2. detection rate of injected slowdowns of 2, 3, 5, 10% (BG_PERF_SLOWDOWN_PCT)
#      on synth/chain (band 3%) and aes/rounds threads:1 (band 5%), N/2 runs each;
#   3. instruction-count mode (callgrind): N/4 A/A runs and N/4 runs with 0.5%
#      injected, on synth/chain (ir_band 0.2%);
#   4. the wall time of each.
# BUDGETS: a budgets file (default suites/perf_budgets/budgets.json), e.g. one
# with tighter bands, to see what a band costs in false alarms and buys in
# detection.  Prints one line per run and a summary; writes nothing outside
# BINDIR/study.
# Exit: 0 done; 2 usage (no BINDIR, a BINDIR without bg-perf and perf-bench,
# N not a whole number >= 4, BUDGETS unreadable: one line, study-lib.sh).
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)  # the suite folder
# shellcheck source=suites/perf_budgets/study/study-lib.sh
source "$src/study/study-lib.sh"
study_help_or_usage 1 "BINDIR [N [BUDGETS]]" "$@"
bin=$1 n=${2:-20}
budgets=${3:-$src/budgets.json}
study_bindir "$bin" bg-perf perf-bench
study_count N "$n" 4 # N/2 and N/4 runs below
study_file BUDGETS "$budgets"
w="$bin/study"; mkdir -p "$w"
aa_filter='^(synth/chain|aes/rounds/real_time/threads:[0-9]+|bg_bench/overhead/.*)$'
run() { # run <head-pct> <filter>  -> prints exit code
  "$bin/bg-perf" ab --base-exe "$bin/perf-bench" --head-exe "$bin/perf-bench" \
    --head-env "BG_PERF_SLOWDOWN_PCT=$1" --filter "$2" \
    --budgets "$budgets" --work-dir "$w" >"$w/last.log" 2>&1
  echo $?
}
fa=0 t0=$(date +%s)
for i in $(seq 1 "$n"); do
  rc=$(run 0 "$aa_filter"); [ "$rc" = 1 ] && fa=$((fa + 1))
  echo "A/A $i: exit $rc $(grep -c ': inconclusive' "$w/last.log") inconclusive"
done
t1=$(date +%s)
echo "SUMMARY A/A: $fa of $n suite runs failed; $(( (t1 - t0) / n )) s per run"
for pct in 2 3 5 10; do
  for b in '^synth/chain$' '^aes/rounds/real_time/threads:1$'; do
    det=0 m=$((n / 2)) t0=$(date +%s)
    for i in $(seq 1 "$m"); do rc=$(run "$pct" "$b"); [ "$rc" = 1 ] && det=$((det + 1)); done
    t1=$(date +%s)
    echo "SUMMARY slowdown $pct% $b: detected $det of $m; $(( (t1 - t0) / m )) s per run"
  done
done
cg() { # cg <head-pct> -> exit code
  "$bin/bg-perf" callgrind --base-exe "$bin/perf-bench" --head-exe "$bin/perf-bench" \
    --head-env "BG_PERF_SLOWDOWN_PCT=$1" --filter '^synth/chain$' \
    --budgets "$budgets" --work-dir "$w" >"$w/last.log" 2>&1
  echo $?
}
for pct in 0 0.5; do
  hit=0 m=$((n / 4)) t0=$(date +%s)
  for i in $(seq 1 "$m"); do rc=$(cg "$pct"); [ "$rc" = 1 ] && hit=$((hit + 1)); done
  t1=$(date +%s)
  echo "SUMMARY callgrind $pct%: failed $hit of $m; $(( (t1 - t0) / m )) s per run"
done
