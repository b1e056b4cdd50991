#!/bin/sh
# native_edited.sh — a hand-edited value in the golden fixture is a corrupted
# fixture, not a CPU deviation: its records no longer match the
# "records_digest" nan-check --write-fixture wrote (nan_fixture.h), so
# nan-check exits 5 with one line "buildgate: nan-check: fixture corrupted:
# <file>: ..." before any probe result is judged (fresh-user trial, issue 23's
# area: main judged it as a deviation of the native run, exit 1, and proposed
# adopting it).  Label selftest, test nan.selftest.native_edited.
#
# Usage: native_edited.sh BG_CHECK NAN_CHECK NAN_PROBE WORK
# One check <test>: expected vs observed exit status and error line of the
# fixture's test (--check-fixture), and what a run against it records.
set -u
[ $# -eq 4 ] || { echo "buildgate: native_edited.sh: want BG_CHECK NAN_CHECK NAN_PROBE WORK" >&2; exit 2; }
check=$1 nancheck=$2 probe=$3 work=$4
n=${BG_TEST_NAME:-nan.selftest.native_edited}
rm -rf "$work" && mkdir -p "$work" && cp -R "${BG_FIXTURES_DIR:?}" "$work/fixtures" || exit 3
fx=$work/fixtures/nan_semantics/golden-x86_64.json
# one digit of addss's first record: 7ff0000000000abc -> 7ff0000000000abd
awk '!done && sub(/"addss":[[:space:]]*"7ff0000000000abc/, "\"addss\":\t\"7ff0000000000abd") { done = 1 } { print }' \
  "$fx" >"$fx.new" && mv "$fx.new" "$fx" || exit 3
# the fixture's own test: exit 5 and the one line
BG_CHECKS_FILE="$work/fixture.jsonl" BG_FIXTURES_DIR="$work/fixtures" "$nancheck" --check-fixture \
  --probe "$probe" --name fixture >"$work/out" 2>"$work/err"
rc=$?
line=$(grep -c . "$work/err")
first=$(head -n 1 "$work/err" | cut -c1-$((${#fx} + 42)))
# a run against it: no deviation judged (no fail, nothing proposed), a skip
# pointing at the fixture's test (exit 77, "see nan.fixture")
BG_CHECKS_FILE="$work/inner.jsonl" BG_FIXTURES_DIR="$work/fixtures" "$nancheck" --runner native \
  --context main_thread --probe "$probe" --name inner >"$work/out2" 2>&1
rc2=$?
fails=$(grep -c '"verdict":"fail"' "$work/inner.jsonl")
see=$(grep -c 'see nan.fixture' "$work/inner.jsonl")
exec "$check" --suite nan_semantics --name "$n" \
  --expect-equal "exit 5; 1 line; buildgate: nan-check: fixture corrupted: $fx:; run: exit 77, 0 fail, skip seeing nan.fixture: 1" \
  "exit $rc; $line line; $first; run: exit $rc2, $fails fail, skip seeing nan.fixture: $see"
