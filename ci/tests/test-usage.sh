#!/bin/sh
# test-usage.sh — ci/test --preset takes only `asan`, and refuses anything
# else in one line, exit 2, before provisioning or building (label unit).
#
# Usage: test-usage.sh BG_CHECK CI_TEST WORK [--selftest]
#   CI_TEST  ci/test (or, with --selftest, ignored: a mutant ci/test that
#            accepts every preset is run instead, and the test passes only
#            when its checks fail; label selftest)
# Checks (suite ci): <test>.unknown_preset (--preset dev), <test>.missing_value
# (--preset), <test>.option_as_value (--preset --build-dir X): each "exit 2,
# 1 line: buildgate: ci/test: --preset ..."; <test>.help (--help names --preset asan).
set -u
case "$#:${4:-}" in
  3:) ;;
  4:--selftest) exec "$(dirname "$0")/../../lib/tests/mutant_caught.sh" "$1" ci 4 "$3" \
                     "$0" "$1" "{mutant}" "$3/mutant" ;;
  *) echo "buildgate: test-usage.sh: want BG_CHECK CI_TEST WORK [--selftest]" >&2; exit 2 ;;
esac
check=$1 citest=$2 work=$3
mkdir -p "$work" || exit 3
n=${BG_TEST_NAME:-test_usage} r=0
# refused <check name> <args...>: exit 2 and one 'buildgate: ci/test: --preset' line
refused() {
  name=$1; shift
  "$citest" "$@" --no-provision >"$work/out" 2>"$work/err"
  rc=$?
  "$check" --suite ci --name "$n.$name" \
    --expect-equal "exit 2, 1 line: buildgate: ci/test: --preset" \
    "exit $rc, $(wc -l <"$work/err" | tr -d ' ') line: $(cut -c1-28 "$work/err" | head -1)" || r=1
}
refused unknown_preset --preset dev --build-dir "$work/never"
refused missing_value --preset
refused option_as_value --preset --build-dir "$work/never"
"$citest" --help >"$work/out" 2>&1
rc=$?
grep -q -- '--preset asan' "$work/out" && h="names --preset asan" || h="does not name --preset asan"
"$check" --suite ci --name "$n.help" --expect-equal "exit 0, names --preset asan" "exit $rc, $h" || r=1
[ ! -e "$work/never" ] || { "$check" --suite ci --name "$n.nothing_built" --verdict fail \
  --expected "no build dir for a refused call" --observed "$work/never was created"; r=1; }
exit $r
