#!/bin/sh
# report_size_test.sh — report.md stays under its cap (512 KiB: it is also
# GitHub's job summary, which holds 1 MiB) however many checks a run has, and
# still names every fail and xpass check; results.json keeps every check.
# Three synthetic runs (bg-report over generated <test>.jsonl files):
#   passes   40 tests x 500 passing checks + 30 fails + 5 xpass (the passing
#            ones are counted per test; before: 6.8 MB)
#   partial  300 long fails: the evidence sections that do not fit are left out,
#            with one line naming them
#   fails    1500 long fails + 50 xpass: only the names (before: 3.0 MB)
#
# Usage: report_size_test.sh BG_CHECK BG_REPORT WORK_DIR
# Checks (suite lib) per run R: report_size.R.bytes (report.md <= 524288 bytes),
# report_size.R.bad_names (every fail/xpass name in report.md),
# report_size.R.results (every check in results.json), report_size.R.cut (the
# line "**report.md cut** ..." there or not, as the run needs).
set -u
[ $# -eq 3 ] || { echo "buildgate: report_size_test.sh: want BG_CHECK BG_REPORT WORK_DIR" >&2; exit 2; }
check=$1 report=$2 work=$3
max=524288 rc=0

# gen DIR NTESTS PASSES_PER_TEST NFAIL NXPASS: the checks of a synthetic run
gen() {
  rm -rf "$1" && mkdir -p "$1" || exit 3
  awk -v dir="$1" -v nt="$2" -v pp="$3" -v nf="$4" -v nx="$5" 'BEGIN {
    pad = ""; for (i = 0; i < 30; i++) pad = pad "0123456789"
    long = ""; for (i = 0; i < 28; i++) long = long "abcdefghij"
    for (t = 0; t < nt; t++) {
      test = sprintf("synth.t%03d", t); file = dir "/" test ".jsonl"
      for (k = 0; k < pp; k++)
        printf "{\"suite\":\"synth\",\"name\":\"%s.c%05d\",\"test\":\"%s\",\"verdict\":\"pass\",\"expected\":\"%s\",\"observed\":\"%s\",\"details\":null}\n", test, k, test, pad, pad > file
      close(file)
    }
    file = dir "/synth.bad.jsonl"
    for (k = 0; k < nf; k++)
      printf "{\"suite\":\"synth\",\"name\":\"synth.bad.fail%05d\",\"test\":\"synth.bad\",\"verdict\":\"fail\",\"expected\":\"%s\",\"observed\":\"%s\",\"details\":{\"action\":\"restore it\"}}\n", k, long, long > file
    for (k = 0; k < nx; k++)
      printf "{\"suite\":\"synth\",\"name\":\"synth.bad.xpass%05d\",\"test\":\"synth.bad\",\"verdict\":\"xpass\",\"expected\":\"x\",\"observed\":\"y\",\"details\":null}\n", k > file
  }'
}

# run NAME NTESTS PASSES_PER_TEST NFAIL NXPASS whole|cut
run() {
  name=$1 total=$(($2 * $3 + $4 + $5)) bad=$(($4 + $5))
  gen "$work/$name" "$2" "$3" "$4" "$5"
  "$report" --checks-dir "$work/$name" --out-dir "$work/$name-report" >"$work/$name.log" 2>&1
  md=$work/$name-report/report.md
  bytes=$(wc -c <"$md" 2>/dev/null || echo 0)
  "$check" --suite lib --name "report_size.$name.bytes" --expect-equal "at most $max bytes" \
    "$([ "$bytes" -gt 0 ] && [ "$bytes" -le "$max" ] && echo "at most $max bytes" || echo "$bytes bytes")" || rc=1
  named=$(grep -o 'synth\.bad\.\(fail\|xpass\)[0-9]*' "$md" 2>/dev/null | sort -u | wc -l | tr -d ' ')
  "$check" --suite lib --name "report_size.$name.bad_names" --expect-equal "$bad of $bad fail/xpass names" \
    "$named of $bad fail/xpass names" || rc=1
  kept=$(grep -c '"verdict":' "$work/$name-report/results.json" 2>/dev/null || echo 0)
  "$check" --suite lib --name "report_size.$name.results" --expect-equal "$total checks in results.json" \
    "$kept checks in results.json" || rc=1
  grep -q '^\*\*report.md cut\*\* to stay under 512 KiB' "$md" 2>/dev/null && how="cut" || how="whole"
  "$check" --suite lib --name "report_size.$name.cut" --expect-equal "$6" "$how" || rc=1
}

mkdir -p "$work" || exit 3
run passes 40 500 30 5 whole
run partial 10 100 300 5 cut
run fails 10 100 1500 50 cut
exit $rc
