#!/usr/bin/env bash
# test-skips.sh — after CTest's summary (which lists the skipped tests without
# a reason), ci/test prints why each was skipped, from the test's checks:
# tests sharing a reason on one line (label selftest).  Stand-in cmake and
# ctest on PATH (no build, seconds); the stand-in ctest records the skip checks
# of three tests (two share a reason) and prints CTest's closing list.
#
# Usage: test-skips.sh BG_CHECK CI_TEST WORK
# Checks (suite ci): <test>.header, <test>.grouped, <test>.single,
# <test>.unrecorded (a skipped test with no checks file says so), <test>.exit
# (ci/test still returns ctest's status), <test>.junit (the same grouping from a
# junit.xml's notrun testcases, as ci/gate reads them), <test>.fixture and
# <test>.junit_fixture (two tests CTest did not run because their fixture setup
# digest.runtime.dataset failed: one line "not run: digest.runtime.dataset
# failed — 2 tests", from the log's "Failed test dependencies:" lines and from
# the junit's <system-out>; main said "no reason recorded (CTest: Not Run)").
set -u
[ $# -eq 3 ] || { echo "buildgate: test-skips.sh: want BG_CHECK CI_TEST WORK" >&2; exit 2; }
check=$1 citest=$2 work=$3
n=${BG_TEST_NAME:-ci.selftest.test_skip_reasons}
rm -rf "$work" && mkdir -p "$work/bin" || exit 3
work=$(cd "$work" && pwd)
cat >"$work/bin/cmake" <<'STUB'
#!/bin/sh
b=""
while [ $# -gt 0 ]; do [ "$1" = -B ] && b=$2; shift; done
[ -n "$b" ] && mkdir -p "$b/checks"
exit 0
STUB
cat >"$work/bin/ctest" <<'STUB'
#!/bin/sh
dir=""
while [ $# -gt 0 ]; do [ "$1" = --test-dir ] && dir=$2; shift; done
skip() { # test reason
  printf '{"suite":"ci","name":"%s.run","test":"%s","verdict":"skip","expected":"a runner","observed":"%s","details":null}\n' \
    "$1" "$1" "$2" >"$dir/checks/$1.jsonl"
}
skip nan.fex.main_thread "runner 'fex' is not installed: \\\"FEXInterpreter\\\" not found in PATH"
skip nan.fex.fork "runner 'fex' is not installed: \\\"FEXInterpreter\\\" not found in PATH"
skip nan.rosetta.main_thread "runner 'rosetta' exists only on macOS"
printf '{"suite":"ci","name":"ok","test":"ok","verdict":"pass","expected":"x","observed":"x","details":null}\n' >"$dir/checks/ok.jsonl"
cat <<'OUT'
    Start 43: digest.runtime.fm1
Failed test dependencies: digest.runtime.dataset
43/47 Test #43: digest.runtime.fm1 .....................***Not Run   0.00 sec
    Start 44: digest.runtime.fm2
Failed test dependencies: digest.runtime.dataset
44/47 Test #44: digest.runtime.fm2 .....................***Not Run   0.00 sec
75% tests passed, 0 tests failed out of 5

The following tests did not run:
	 12 - nan.fex.main_thread (Skipped)
	 13 - nan.fex.fork (Skipped)
	 40 - nan.rosetta.main_thread (Skipped)
	 41 - lib.unit.gone (Not Run)
	 43 - digest.runtime.fm1 (Not Run)
	 44 - digest.runtime.fm2 (Not Run)
OUT
exit 0
STUB
chmod +x "$work/bin/cmake" "$work/bin/ctest"
PATH="$work/bin:$PATH" "$citest" --no-provision --build-dir "$work/b" >"$work/out" 2>"$work/err"
rc=$?
r=0
has() { # check-name expected-line
  if grep -qxF -- "$2" "$work/out"; then got=$2; else got="not in ci/test's output: $(tail -n 6 "$work/out" | tr '\n' '|')"; fi
  "$check" --suite ci --name "$n.$1" --expect-equal "$2" "$got" || r=1
}
has header "skipped: 6 tests, why (from each test's checks):"
has grouped "  runner 'fex' is not installed: \"FEXInterpreter\" not found in PATH — 2 tests: nan.fex.main_thread, nan.fex.fork"
has single "  nan.rosetta.main_thread: runner 'rosetta' exists only on macOS"
has unrecorded "  lib.unit.gone: no reason recorded (CTest: Not Run; see $work/b/checks/lib.unit.gone.jsonl)"
fixture_line="  not run: digest.runtime.dataset failed — 2 tests: digest.runtime.fm1, digest.runtime.fm2"
has fixture "$fixture_line"
"$check" --suite ci --name "$n.exit" --expect-equal "exit 0" "exit $rc" || r=1
# ci/gate reads the skipped tests from CTest's --output-junit file (status="notrun")
printf '<testsuite>\n\t<testcase name="%s" classname="%s" time="0.1" status="notrun">\n' \
  nan.fex.main_thread nan.fex.main_thread nan.fex.fork nan.fex.fork >"$work/junit.xml"
for t in digest.runtime.fm1 digest.runtime.fm2; do # as CTest 3.25 writes them
  printf '\t<testcase name="%s" classname="%s" time="0" status="notrun">\n\t\t<skipped message="Fixture dependency failed"/>\n\t\t<system-out>Failed test dependencies: digest.runtime.dataset</system-out>\n\t</testcase>\n' \
    "$t" "$t" >>"$work/junit.xml"
done
printf '\t<testcase name="ok" classname="ok" time="0.1" status="run">\n</testsuite>\n' >>"$work/junit.xml"
bash -c 'source "$1/common.sh" && bg_skip_reasons "$2" "$3"' _ "$(dirname "$citest")" "$work/b" "$work/junit.xml" >"$work/out" 2>&1
has junit "  runner 'fex' is not installed: \"FEXInterpreter\" not found in PATH — 2 tests: nan.fex.main_thread, nan.fex.fork"
has junit_fixture "$fixture_line"
exit $r
