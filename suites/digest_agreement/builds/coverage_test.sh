#!/bin/sh
# coverage_test.sh — every RandomX build variant has its checks in this build
# tree: built (digest.build.<v>.*) or a skip naming the cause and the fix
# (digest.build.<v>); a trap variant digest.selftest.aes_trap.<v>.  A configure
# without RandomX's source once dropped them all with one configure line.
#
# Usage: coverage_test.sh BG_CHECK CTEST BUILD_DIR VARIANT...
# Checks (suite digest_agreement): <test>.variants (the variants with no test:
# none), <test>.catches_missing (a made-up variant name is found missing).
set -u
[ $# -ge 3 ] || { echo "buildgate: coverage_test.sh: want BG_CHECK CTEST BUILD_DIR VARIANT..." >&2; exit 2; }
check=$1 ctest=$2 build=$3
shift 3
n=${BG_TEST_NAME:-digest.selftest.build_coverage}
tests=$("$ctest" --test-dir "$build" -N 2>&1) ||
  { echo "buildgate: coverage_test.sh: ctest -N failed in $build" >&2; exit 3; }
# missing VARIANT...: the names with no test
missing() {
  for v in "$@"; do
    printf '%s\n' "$tests" | grep -Eq "Test +#[0-9]+: digest\.(build|selftest\.aes_trap)\.$v(\.|$)" ||
      printf '%s ' "$v"
  done
}
m=$(missing "$@")
"$check" --suite digest_agreement --name "$n.variants" --expect-equal "variants without a check: none" \
  "variants without a check: ${m:-none}"
r1=$?
m=$(missing bg_no_such_variant)
"$check" --suite digest_agreement --name "$n.catches_missing" \
  --expect-equal "variants without a check: bg_no_such_variant " "variants without a check: ${m:-none}"
r2=$?
[ "$r1" = 0 ] && [ "$r2" = 0 ]
