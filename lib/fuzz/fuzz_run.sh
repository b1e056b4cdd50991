#!/bin/sh
# fuzz_run.sh — runs one libFuzzer target as a CTest test and records its check
# (BuildgateFuzz.cmake, docs/fuzzing.md).
#
# Usage: fuzz_run.sh BG_CHECK EXE SKIP_WHY SECONDS WORK CORPUS REGRESS DICT [SEED...]
#   EXE      the fuzz executable ("-": skip with SKIP_WHY)
#   SECONDS  0: replay every seed (CORPUS) and regression input (REGRESS) once;
#            else fuzz that long (-max_total_time), starting from both, new
#            inputs going to WORK/corpus (never into the repository)
#   DICT     libFuzzer dictionary, or "-"
#   SEED     more seed files, used where they are (the stored fixtures)
# One check "fuzz.<target>" (suite $BG_SUITE): pass, fail naming the crash
# input (WORK/crash-*) and the sanitizer's first error line, or skip.
# Exit: 0 pass, 1 fail, 77 skip, 2 usage.
set -u
[ $# -ge 8 ] || { echo "buildgate: fuzz_run.sh: want BG_CHECK EXE SKIP_WHY SECONDS WORK CORPUS REGRESS DICT [SEED...]" >&2; exit 2; }
check=$1 exe=$2 why=$3 secs=$4 work=$5 corpus=$6 regress=$7 dict=$8
shift 8
target=$(basename "$corpus")
suite=${BG_SUITE:-lib}
record() { "$check" --suite "$suite" --name "fuzz.$target" --verdict "$1" --expected "$2" --observed "$3"; }

if [ "$exe" = - ]; then
    record skip "a libFuzzer build" "$why"
    exit 77
fi
if [ ! -x "$exe" ]; then
    record fail "$exe built" "missing: build the fuzz tree (cmake --build <build>, target bg-fuzz)"
    exit 1
fi
rm -rf "$work"
mkdir -p "$work/corpus" "$work/seeds" || exit 3
for f in "$@"; do cp "$f" "$work/seeds/" || exit 3; done
# the targets' scratch files (bg_fuzz.h): in memory when possible, removed
# even when a crash left them behind
scratch=$(mktemp -d /dev/shm/bg-fuzz-run.XXXXXX 2>/dev/null || mktemp -d) || exit 3
trap 'rm -rf "$scratch"' EXIT
export BG_FUZZ_TMP="$scratch"
inputs=""
for d in "$corpus" "$regress" "$work/seeds"; do [ -d "$d" ] && inputs="$inputs $d"; done
set -- -close_fd_mask=3 -artifact_prefix="$work/" -rss_limit_mb=2048 -timeout=20
[ "$dict" != - ] && set -- "$@" -dict="$dict"
if [ "$secs" = 0 ]; then
    files=$(for d in $inputs; do find "$d" -type f; done)
    if [ -z "$files" ]; then
        record fail "seed inputs in $corpus" "none"
        exit 1
    fi
    # shellcheck disable=SC2086 # one argument per file (names have no spaces)
    "$exe" "$@" $files >"$work/log" 2>&1
    rc=$?
    expected="every seed and regression input replayed, no crash"
else
    # shellcheck disable=SC2086
    "$exe" "$@" -max_total_time="$secs" -print_final_stats=1 \
        "$work/corpus" $inputs >"$work/log" 2>&1
    rc=$?
    expected="$secs s of fuzzing, no crash"
fi
stats=$(grep -E '^stat::(number_of_executed_units|average_exec_per_sec|new_units_added)' "$work/log" |
        sed 's/^stat:://' | tr -s ' ' | tr '\n' ' ')
if [ "$rc" = 0 ]; then
    record pass "$expected" "no crash ${stats}"
    exit $?
fi
crash=$(find "$work" -maxdepth 1 \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | head -n 1)
[ -n "$crash" ] || crash=$(sed -n 's/^Running: //p' "$work/log" | tail -n 1)
first=$(grep -m 1 -E 'ERROR: |runtime error:' "$work/log" | sed 's/^==[0-9]*==//')
record fail "$expected" "exit $rc: ${first:-see $work/log}; input ${crash:-none}; add it to $regress/ once fixed"
exit 1
