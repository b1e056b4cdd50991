#!/bin/sh
# update-baselines-selftest.sh — ci/update-baselines refuses, in one line and
# before any benchmark runs, what it cannot record (label selftest):
#   filter   --filter matching no benchmark -> exit 2, "no benchmark matches
#            --filter '...'" (it said "baseline-run.json is not valid JSON
#            (near byte 0 of 0)" after an empty run)
#   corrupt  this host's stored baseline is not valid JSON -> exit 4, bg-perf's
#            line naming the file (it ran every benchmark first)
#   bad_sample a stored baseline the gate refuses (a negative sample) -> exit 5,
#            the gate loader's line (it was accepted and replaced silently)
#   bad_regex --filter '^(synth' -> exit 2, "not a valid regular expression"
#            (it said "no benchmark matches")
#   unbuilt  --no-build on a folder that was never built -> exit 3, one line
#            (it leaked sed's and the shell's own errors)
#   huge_rounds  --rounds beyond bg-perf's 1..1000 -> exit 2 before any build
#   baselines_file  --baselines naming a file -> exit 2 before any run
# Runs on the build tree as built (--no-build) with a scratch --baselines
# folder; the repository's baselines/ is never touched.
# Usage: update-baselines-selftest.sh CASE BG_EXPECT BUILD_DIR WORK
# (bg-expect records the one check: the exact exit code and stderr line)
set -u
case=$1 expect=$2 build=$3 work=$4
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
rm -rf "$work" && mkdir -p "$work/baselines" || exit 3
key=$("$build/lib/bg-host" --key) || exit 3
perf="$build/suites/perf_budgets"
baselines=$work/baselines rounds=""
run() { # run EXIT LINE [BUILD_DIR]
    exec "$expect" --name "ci.selftest.update_baselines_$case" --exit "$1" --stderr "$2" -- \
        "$root/ci/update-baselines" --approve "self-test" --build-dir "${3:-$build}" --no-build \
        --baselines "$baselines" --filter "$filter" ${rounds:+--rounds "$rounds"}
}
case $case in
    filter)
        filter='^no-such-benchmark$'
        run 2 "buildgate: ci/update-baselines: no benchmark matches --filter '$filter' (list them: $perf/perf-bench --benchmark_list_tests=true)" ;;
    corrupt)
        filter='^synth'
        printf '{"schema": 1, "ho' >"$work/baselines/$key.json"
        run 4 "buildgate: bg-perf: baseline: $work/baselines/$key.json is not valid JSON (near byte 15 of 17)" ;;
    bad_sample)
        # a baseline the gate refuses (a sample not a positive number) is refused
        # before any run, as the gate's own loader would (fresh-user trial: it was
        # accepted, the benchmarks ran, and "median inf" was replaced silently)
        filter='^synth'
        printf '{"schema": 1, "host": "%s", "metric": "cpu_time", "benchmarks": {"synth/chain": [-1, 2, 3]}}\n' \
            "$key" >"$work/baselines/$key.json"
        run 5 "buildgate: bg-perf: baseline: $work/baselines/$key.json: synth/chain: a sample is not a positive finite number" ;;
    bad_regex)
        filter='^(synth'
        run 2 "buildgate: ci/update-baselines: --filter '$filter' is not a valid regular expression (" ;;
    unbuilt)
        filter='^synth'
        mkdir -p "$work/never-built"
        run 3 "buildgate: ci/update-baselines: $work/never-built is not a built tree (no CMakeCache.txt): build it (cmake --build $work/never-built) or drop --no-build" "$work/never-built" ;;
    huge_rounds)  # bg-perf's range checked before any build (it was refused by bg-perf in step 2)
        filter='^synth' rounds=99999999999999999999
        run 2 "buildgate: ci/update-baselines: --rounds: '99999999999999999999' is not a whole number in 1..1000 (bg-perf's range)" ;;
    baselines_file)  # a --baselines that is a file: one line before any run (it ran every benchmark first)
        filter='^synth' baselines=$work/a-file
        : >"$baselines"
        run 2 "buildgate: ci/update-baselines: --baselines $baselines: not a directory" ;;
    *) echo "buildgate: update-baselines-selftest.sh: unknown case '$case'" >&2; exit 2 ;;
esac
