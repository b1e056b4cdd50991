# selftest_rec.sh — sourced by the build-variant self-tests (bad_input.sh,
# cache_selftest.sh) after they set check=<bg-check> and me=<test name>.
# Takes the test's checks file for itself (the cmake/build runs inside do not
# write into it) and defines
#   rec NAME EXPECTED OBSERVED   check "$me.NAME", suite digest_agreement,
#                                pass when OBSERVED equals EXPECTED
# shellcheck shell=bash
outer=${BG_CHECKS_FILE:-/dev/null}
unset BG_CHECKS_FILE
rec() { BG_CHECKS_FILE=$outer "$check" --suite digest_agreement --name "$me.$1" --expect-equal "$2" "$3" || true; }
