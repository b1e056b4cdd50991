#!/bin/sh
# run_stderr_test.sh — bg-run's <test>.exit check quotes what the command said:
# a command that exits 2 without recording a failing check (a usage error of
# the tool under test) must leave "exit status 2 without a failing check;
# stderr: <its last stderr line>" in the check, not the bare status.
# Usage: run_stderr_test.sh BG_CHECK BG_RUN WORK_DIR   (label selftest)
set -u
check=$1 run=$2 work=$3
mkdir -p "$work" || exit 3
inner="$work/inner.jsonl"
"$run" --checks "$inner" --suite lib --test inner -- \
    sh -c 'echo "progress 1/2"; echo "buildgate: tool: --k: out of range" >&2; exit 2' \
    >/dev/null 2>"$work/err"
rc=$?
observed=$(sed -n 's/.*"name":"inner.exit".*"observed":"\([^"]*\)".*/\1/p' "$inner")
"$check" --suite lib --name lib.selftest.run_quotes_stderr --expect-equal \
    "exit 1: exit status 2 without a failing check; stderr: buildgate: tool: --k: out of range" \
    "exit $rc: $observed"
