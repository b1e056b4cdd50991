#!/bin/sh
# faults_counts.sh — context faults counts cases, not sub-checks: one case per
# row of cases/nan_faults.def, so "cases compared" + "not compared" = the
# rows, and the parts judged one by one are reported beside it as sub-checks
# (more than the cases).  Fresh-user trial, issue 23's area: main said "31
# cases compared" for the 13 rows.  Label selftest, test nan.selftest.faults_counts.
#
# Usage: faults_counts.sh BG_CHECK NAN_CHECK NAN_PROBE FAULTS_DEF WORK
# One check <test>: expected vs observed counts.
set -u
[ $# -eq 5 ] || { echo "buildgate: faults_counts.sh: want BG_CHECK NAN_CHECK NAN_PROBE FAULTS_DEF WORK" >&2; exit 2; }
check=$1 nancheck=$2 probe=$3 def=$4 work=$5
n=${BG_TEST_NAME:-nan.selftest.faults_counts}
rm -rf "$work" && mkdir -p "$work" || exit 3
rows=$(grep -c '^NAN_FAULT(' "$def")
BG_CHECKS_FILE="$work/inner.jsonl" "$nancheck" --runner native --context faults --probe "$probe" \
  --name inner >"$work/out" 2>&1
rc=$?
summary=$(grep '"name":"inner"' "$work/inner.jsonl" | head -n 1)
num() { printf '%s\n' "$summary" | sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p"; }
cmp=$(num cases_compared) not=$(num cases_not_compared) sub=$(num sub_checks)
obs="exit $rc; ${cmp:-?} + ${not:-?} cases = $(( ${cmp:-0} + ${not:-0} ))"
[ -n "$sub" ] && [ "$sub" -gt "${cmp:-0}" ] && obs="$obs; sub-checks reported, more than the cases" \
  || obs="$obs; sub-checks ${sub:-not reported}"
case $summary in *"cases compared ("*" sub-checks: "*) obs="$obs; said in the observed text" ;;
  *) obs="$obs; not in the observed text" ;; esac
exec "$check" --suite nan_semantics --name "$n" \
  --expect-equal "exit 0; ${cmp:-?} + ${not:-?} cases = $rows; sub-checks reported, more than the cases; said in the observed text" "$obs"
