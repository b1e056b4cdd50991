#!/bin/sh
# fuzz_selftest.sh — self-test of the fuzz check (lib.selftest.fuzz_crash):
# fuzz_run.sh replaying an input that makes a deliberately broken target
# crash (fuzz_selftest_crash.c) must exit 1 with a fail check that names the
# sanitizer's error (UBSan or ASan) and the crashing input.
#
# Usage: fuzz_selftest.sh BG_CHECK FUZZ_RUN FUZZ_RUN_ARGS...  (as fuzz_run.sh)
# Exit: 0 the fuzz check failed as it must, 1 it did not, 77 no fuzz build.
set -u
check=$1 run=$2
shift 2
[ "$1" = - ] || [ ! -x "$1" ] && { "$check" --suite lib --name fuzz_crash --verdict skip --expected "a libFuzzer build" --observed "no fuzz build: $2"; exit 77; }
inner=$(mktemp) || exit 3
BG_CHECKS_FILE=$inner sh "$run" "$check" "$@" >/dev/null 2>&1
rc=$?
observed="exit $rc: $(sed -n 's/.*"verdict":"\([a-z]*\)".*"observed":"\([^"]*\)".*/\1: \2/p' "$inner" | head -n 1)"
rm -f "$inner"
case "$observed" in
    "exit 1: fail: exit "*"runtime error: "*"; input "*"/selftest_crash/"*) verdict=pass ;;
    "exit 1: fail: exit "*"AddressSanitizer: "*"; input "*"/selftest_crash/"*) verdict=pass ;;
    *) verdict=fail ;;
esac
"$check" --suite lib --name fuzz_crash --verdict $verdict \
    --expected "exit 1: fail naming the sanitizer error and the crashing input" --observed "$observed"
