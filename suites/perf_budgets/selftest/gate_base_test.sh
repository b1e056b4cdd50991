#!/bin/sh
# gate_base_test.sh — ci/gate --base refuses what is not a commit in one line,
# exit 2, before provisioning or building anything (label unit).
#
# Usage: gate_base_test.sh BG_CHECK GATE WORK [--selftest]
#   GATE  ci/gate (or, with --selftest, ignored: a mutant gate that accepts
#         every --base is run instead, and the test passes only when its
#         checks fail; label selftest)
# Checks (suite perf_budgets): <test>.bad_ref ("exit 2: buildgate: ci/gate:
# --base: 'no-such-ref-xyz' is not a commit"), <test>.missing_value (exit 2,
# one line), <test>.option_as_value (--base --build-dir X: exit 2, one line).
set -u
[ $# -ge 3 ] || { echo "buildgate: gate_base_test.sh: want BG_CHECK GATE WORK [--selftest]" >&2; exit 2; }
check=$1 gate=$2 work=$3
mkdir -p "$work" || exit 3
if [ "${4:-}" = --selftest ]; then
  exec "$(dirname "$0")/../../../lib/tests/mutant_caught.sh" "$check" perf_budgets 3 "$work" \
       "$0" "$check" "{mutant}" "$work/mutant"
fi
n=${BG_TEST_NAME:-gate_base}
"$gate" --base no-such-ref-xyz --no-provision --build-dir "$work/never" >"$work/out" 2>"$work/err"
rc=$?
"$check" --suite perf_budgets --name "$n.bad_ref" \
  --expect-equal "exit 2: buildgate: ci/gate: --base: 'no-such-ref-xyz' is not a commit" \
  "exit $rc: $(cat "$work/err")"
r1=$?
"$gate" --no-provision --base >"$work/out" 2>"$work/err"
rc=$?
"$check" --suite perf_budgets --name "$n.missing_value" \
  --expect-equal "exit 2, 1 line: buildgate: ci/gate: --base: missing value" \
  "exit $rc, $(wc -l <"$work/err" | tr -d ' ') line: $(cut -c1-41 "$work/err" | head -1)"
r2=$?
# an option where the value should be is not taken as the ref
"$gate" --base --build-dir "$work/never" >"$work/out" 2>"$work/err"
rc=$?
"$check" --suite perf_budgets --name "$n.option_as_value" \
  --expect-equal "exit 2, 1 line: buildgate: ci/gate: --base: missing value" \
  "exit $rc, $(wc -l <"$work/err" | tr -d ' ') line: $(cut -c1-41 "$work/err" | head -1)"
r3=$?
[ "$r1" = 0 ] && [ "$r2" = 0 ] && [ "$r3" = 0 ]
