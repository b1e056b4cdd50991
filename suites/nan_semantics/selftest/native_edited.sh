#!/bin/sh
# native_edited.sh — a hand-edited value in the golden fixture, run natively on
# x86-64: the native run differs from its own record, so the failing group's
# next step names the fixture diff first, before "review the proposed line,
# then adopt" (fresh-user trial: the adoption came first, inviting the
# corruption into native.tsv).  Label selftest, test nan.selftest.native_edited.
#
# Usage: native_edited.sh BG_CHECK NAN_CHECK NAN_PROBE WORK
# One check <test>: expected vs observed start of the first failing group's action.
set -u
[ $# -eq 4 ] || { echo "buildgate: native_edited.sh: want BG_CHECK NAN_CHECK NAN_PROBE WORK" >&2; exit 2; }
check=$1 nancheck=$2 probe=$3 work=$4
n=${BG_TEST_NAME:-nan.selftest.native_edited}
rm -rf "$work" && mkdir -p "$work" && cp -R "${BG_FIXTURES_DIR:?}" "$work/fixtures" || exit 3
fx=$work/fixtures/nan_semantics/golden-x86_64.json
# one digit of addss's first record: 7ff0000000000abc -> 7ff0000000000abd
awk '!done && sub(/"addss":[[:space:]]*"7ff0000000000abc/, "\"addss\":\t\"7ff0000000000abd") { done = 1 } { print }' \
  "$fx" >"$fx.new" && mv "$fx.new" "$fx" || exit 3
BG_CHECKS_FILE="$work/inner.jsonl" BG_FIXTURES_DIR="$work/fixtures" "$nancheck" --runner native \
  --context main_thread --probe "$probe" --name inner >"$work/out" 2>&1
rc=$?
action=$(grep '"verdict":"fail"' "$work/inner.jsonl" | grep -o '"action":"[^"]*' | head -n 1 | cut -c11-57)
exec "$check" --suite nan_semantics --name "$n" \
  --expect-equal "exit 1; the native run differs from the stored fixture:" "exit $rc; ${action:-no failing group with an action}"
