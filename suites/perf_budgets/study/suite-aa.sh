#!/usr/bin/env bash
# suite-aa.sh BINDIR OUT N [PCT [BUDGETS]] — real PR-judge suite runs for the
# false-alarm study (docs/performance.md "Suite false-alarm rate"): N runs of
# `bg-perf ab --gates pr_judge` (synth, AES threads 1..N, light-mode RandomX
# hashing; the automatic plan and reruns of budgets.json) of one perf-bench
# against itself, the head with BG_PERF_SLOWDOWN_PCT=PCT (default 0: A/A).
# Writes OUT/run-NNN.log (bg-perf's output, with `uptime` before and after) and
# prints one line per run: exit code, then every benchmark's verdict line.
# A benchmark study, not a test.
# Exit: 0 done; 2 usage (fewer than 3 arguments, a BINDIR without bg-perf and
# perf-bench, N not a whole number, BUDGETS unreadable: one line,
# study-lib.sh); 3 OUT cannot be created.
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)  # the suite folder
# shellcheck source=suites/perf_budgets/study/study-lib.sh
source "$src/study/study-lib.sh"
study_help_or_usage 3 "BINDIR OUT N [PCT [BUDGETS]]" "$@"
bin=$1 out=$2 n=$3 pct=${4:-0}
budgets=${5:-$src/budgets.json}
study_bindir "$bin" bg-perf perf-bench
study_count N "$n"
study_file BUDGETS "$budgets"
mkdir -p "$out" || exit 3
for i in $(seq -f %03g 1 "$n"); do
  log="$out/run-$i.log"
  { date -u +%FT%TZ; uptime; } >"$log"
  "$bin/bg-perf" ab --base-exe "$bin/perf-bench" --head-exe "$bin/perf-bench" \
    --head-env "BG_PERF_SLOWDOWN_PCT=$pct" --gates pr_judge --budgets "$budgets" \
    --work-dir "$out/w" >>"$log" 2>&1
  rc=$?
  { date -u +%FT%TZ; uptime; } >>"$log"
  echo "run $i (slowdown $pct %): exit $rc"
  grep -E '^(synth|aes|randomx)/[^ ]*: (pass|fail|inconclusive|improved)' "$log" | tail -n 4 | sed 's/^/  /'
done
