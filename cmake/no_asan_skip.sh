#!/bin/sh
# no_asan_skip.sh <bg-check> <suite> <test name> <reason>: what a test that
# cannot run under the sanitizers (BG_NO_ASAN, cmake/BuildgateSanitizers.cmake)
# does in a sanitizer build: records a skip with the reason, exits 77 (skip).
[ $# -eq 4 ] || { echo "buildgate: no_asan_skip.sh: usage: no_asan_skip.sh <bg-check> <suite> <test> <reason>" >&2; exit 2; }
"$1" --suite "$2" --name "$3" --verdict skip --expected "a build without sanitizers" \
     --observed "not run under ASan/UBSan: $4" || exit $?
exit 77
