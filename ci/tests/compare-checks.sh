#!/usr/bin/env bash
# compare-checks.sh — what ci/compare-checks and ci/bisect --from-results take
# as a results.json (label selftest, seconds): the real scripts from CI_DIR.
#
# Usage: compare-checks.sh BG_CHECK CI_DIR WORK [--mutant]
#   --mutant  the same cases against a copy of ci/ whose compare-checks and
#             bisect do not validate (sed): passes only when the checks fail
# Checks (suite ci), each the exit status and the one line printed:
#   empty     two empty (0-byte) files: exit 3, "...: not a results.json (...)"
#   directory a directory: exit 3, "...: is a directory, not a results.json"
#   names     checks without a string name: exit 3, not a results.json
#   noisy     --noisy '(' (an invalid ERE): exit 2, one line, nothing on stdout
#   bisect    ci/bisect --from-results empty.json: exit 4, not a results.json
#   good      two valid files still compare: exit 0
set -u
[ $# -ge 3 ] || { echo "buildgate: compare-checks.sh: want BG_CHECK CI_DIR WORK [--mutant]" >&2; exit 2; }
check=$1 cidir=$2 work=$3
n=${BG_TEST_NAME:-ci.selftest.compare_checks}
rm -rf "$work" && mkdir -p "$work" || exit 3
work=$(cd "$work" && pwd) cidir=$(cd "$cidir" && pwd) || exit 3
if [ "${4:-}" = --mutant ]; then
  m=$work/mutant
  mkdir -p "$m/ci" "$m/lib/sh" && cp "$cidir/compare-checks" "$cidir/bisect" "$cidir/bisect-lib.sh" "$cidir/common.sh" "$m/ci/" &&
    cp "$cidir/../lib/sh/bg_cli.sh" "$m/lib/sh/" || exit 3
  # the validation taken out: every file is a results.json, every --noisy an ERE
  sed -i 's/^bg_results_why() {$/&\n  return 0/' "$m/ci/common.sh"
  sed -i '/^awk -v noisy="$noisy" .BEGIN/,/not a valid extended regular expression/d' "$m/ci/compare-checks"
  BG_CHECKS_FILE="$work/mutant.jsonl" BG_TEST_NAME=mutant "$0" "$check" "$m/ci" "$work/run" >"$work/mutant.out" 2>&1
  fails=$(grep -c '"verdict": *"fail"' "$work/mutant.jsonl" 2>/dev/null)
  "$check" --suite ci --name "$n.mutant_caught" --expect-equal "some checks fail" \
    "$([ "${fails:-0}" -gt 0 ] && echo "some checks fail" || echo "no check fails: $(cat "$work/mutant.out")")"
  exit $?
fi
cd "$work" || exit 3
: >empty.json
mkdir -p dir.json
echo '{"checks":[{"verdict":"pass"}]}' >names.json
echo '{"checks":[{"name":"a.one","verdict":"pass"}]}' >good.json
not="not a results.json (its .checks must be an array of checks with a string name and verdict; docs/results.schema.json)"
r=0
# case_ <name> <want-exit> <want-stderr> <cmd...>: one stderr line, no stdout (but for good)
case_() {
  local name=$1 want=$2 line=$3 rc; shift 3
  "$@" >"$name.out" 2>"$name.err"; rc=$?
  "$check" --suite ci --name "$n.$name" --expect-equal "exit $want; $line; stdout: $([ "$name" = good ] && echo 1 || echo 0) lines" \
    "exit $rc; $(paste -sd'|' "$name.err"); stdout: $(wc -l <"$name.out") lines" || r=1
}
case_ empty 3 "buildgate: ci/compare-checks: empty.json: $not" "$cidir/compare-checks" empty.json empty.json
case_ directory 3 "buildgate: ci/compare-checks: dir.json: is a directory, not a results.json" \
  "$cidir/compare-checks" good.json dir.json
case_ names 3 "buildgate: ci/compare-checks: names.json: $not" "$cidir/compare-checks" good.json names.json
case_ noisy 2 "buildgate: ci/compare-checks: --noisy '(': not a valid extended regular expression" \
  "$cidir/compare-checks" good.json good.json --noisy '('
case_ bisect 4 "buildgate: ci/bisect: --from-results empty.json: $not" "$cidir/bisect" --from-results empty.json
case_ good 0 "" "$cidir/compare-checks" good.json good.json
exit $r
