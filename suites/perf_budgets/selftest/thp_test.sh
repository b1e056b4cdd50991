#!/bin/sh
# thp_test.sh — perf-bench measures RandomX as production runs it: its 256 MiB
# cache madvise(MADV_HUGEPAGE)d, and the kernel really gave huge pages
# (bench/rx_thp.h; issue 24 item 1, docs/performance.md "Why light-mode
# processes were bimodal").
#
# Usage: thp_test.sh BG_CHECK PERF_BENCH WORK [--selftest]
#   Runs PERF_BENCH (no BG_PERF_RX_THP: the default) on light-mode RandomX
#   hashing, one iteration (light-jit-hard; light-interp-hard where the JIT
#   is refused), JSON into WORK.
# Checks (suite perf_budgets):
#   <test>.context    "randomx_thp_advice on, thp_enabled <host mode>" from the
#                     JSON "context" (the host mode read from
#                     /sys/kernel/mm/transparent_hugepage/enabled)
#   <test>.cache_huge "cache huge pages > 0 MiB" from the benchmark's label
#                     ("thp on: cache N MiB huge, ...": AnonHugePages of the
#                     cache's mapping)
#   A host whose THP mode is `never` (or without THP) cannot give huge pages:
#   a skip naming the mode (exit 77).
# --selftest (label selftest): the same script on a mutant perf-bench, the one
#   RandomX's own allocation gives (BG_PERF_RX_THP=off: no advice, as on main
#   before the change): both checks must fail where the host's mode is
#   `madvise` (<test>.mutant_caught "exit 1, 2 failing checks"); under
#   `always` every anonymous mapping gets huge pages unasked, so the mutant
#   cannot be told apart: a skip naming the mode.
# Exit: 0 pass, 1 a check failed, 2 usage, 3 setup, 77 skip.
set -u
[ $# -ge 3 ] || { echo "buildgate: thp_test.sh: want BG_CHECK PERF_BENCH WORK [--selftest]" >&2; exit 2; }
check=$1 bench=$2 work=$3
n=${BG_TEST_NAME:-thp}
mkdir -p "$work" || exit 3
mode=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
case "$mode" in
  always|madvise) ;;
  *) "$check" --suite perf_budgets --name "$n" --verdict skip --expected "a host with transparent huge pages (always or madvise)" \
       --observed "THP mode: ${mode:-none (no /sys/kernel/mm/transparent_hugepage/enabled)}"
     exit 77 ;;
esac
if [ "${4:-}" = --selftest ]; then
  if [ "$mode" != madvise ]; then
    "$check" --suite perf_budgets --name "$n.mutant_caught" --verdict skip \
      --expected "THP mode madvise (an unadvised mapping gets no huge pages)" --observed "THP mode: $mode"
    exit 77
  fi
  printf '#!/bin/sh\nBG_PERF_RX_THP=off exec "%s" "$@"\n' "$bench" >"$work/mutant-bench" && chmod +x "$work/mutant-bench" || exit 3
  rm -f "$work/mutant.jsonl"
  BG_CHECKS_FILE="$work/mutant.jsonl" sh "$0" "$check" "$work/mutant-bench" "$work/mutant"
  rc=$?
  fails=$(grep -c '"verdict": *"fail"' "$work/mutant.jsonl" 2>/dev/null)
  "$check" --suite perf_budgets --name "$n.mutant_caught" \
    --expect-equal "exit 1, 2 failing checks" "exit $rc, ${fails:-0} failing checks"
  exit $?
fi
out=$work/run.json
run() { "$bench" --benchmark_filter="$1" --bg_iterations=1 --benchmark_out="$out" --benchmark_out_format=json >"$work/out" 2>&1; }
run '/hash/light-jit-hard(/|$)'
grep -q '"label": *"thp' "$out" 2>/dev/null || run '/hash/light-interp-hard(/|$)' # JIT refused (W+X)
advice=$(sed -n 's/.*"randomx_thp_advice": *"\([^"]*\)".*/\1/p' "$out" 2>/dev/null)
host=$(sed -n 's/.*"thp_enabled": *"\([^"]*\)".*/\1/p' "$out" 2>/dev/null)
"$check" --suite perf_budgets --name "$n.context" --expect-equal "randomx_thp_advice on, thp_enabled $mode" \
  "randomx_thp_advice ${advice:-(none)}, thp_enabled ${host:-(none)}"
r1=$?
label=$(sed -n 's/.*"label": *"\(thp[^"]*\)".*/\1/p' "$out" 2>/dev/null | head -1)
mib=$(echo "$label" | sed -n 's/.*cache \([0-9][0-9]*\) MiB huge.*/\1/p')
if [ -n "$mib" ] && [ "$mib" -gt 0 ]; then obs="cache huge pages > 0 MiB"; else obs="cache huge pages: ${label:-no label (run: $work/out)}"; fi
"$check" --suite perf_budgets --name "$n.cache_huge" --expect-equal "cache huge pages > 0 MiB" "$obs"
r2=$?
[ "$r1" = 0 ] && [ "$r2" = 0 ]
