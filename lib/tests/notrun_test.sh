#!/bin/sh
# notrun_test.sh — one cause, one failure: a test CTest did not run because
# its fixture setup test failed is a skip "not run: <setup> failed" in
# bg-report, not a second fail "<test>.checks: no checks file" (issue 25: the
# dataset test's timeout became 8 failures).  A scratch CTest project (real
# ctest, seconds): digest.runtime.dataset (FIXTURES_SETUP dataset) records a
# fail check through bg-check and exits 1; digest.runtime.fm1 and .fm2
# (FIXTURES_REQUIRED dataset) are Not Run; lib.unit.other passes.  Then
# bg-report --tests (ctest --show-only=json-v1) over the checks they left.
#
# Usage: notrun_test.sh BG_CHECK BG_REPORT CMAKE CTEST WORK_DIR CASE
#   CASE  setup_failed  the setup fails: 1 fail (the setup's), 2 skips
#                       "not run: digest.runtime.dataset failed", no
#                       "no checks file" (main: 3 fails, 2 of them that)
#         setup_passed  the setup passes but fm1 leaves no checks file (it
#                       died): still a fail "no checks file" (a missing test
#                       is excused only by a failed setup)
# Records one check notrun.<CASE> (suite lib).  Exit: 0 pass, 1 fail, 2 usage,
# 3 I/O.
set -u
[ $# -eq 6 ] || { echo "buildgate: notrun_test.sh: want BG_CHECK BG_REPORT CMAKE CTEST WORK_DIR CASE" >&2; exit 2; }
check=$1 report=$2 cmake=$3 ctest=$4 work=$5 case=$6
case $case in
setup_failed) setup_cmd="--verdict fail --expected 'dataset in 600 s' --observed timeout" ;;
setup_passed) setup_cmd="--verdict pass" ;;
*) echo "buildgate: notrun_test.sh: unknown case '$case'" >&2; exit 2 ;;
esac
rm -rf "$work" && mkdir -p "$work/src" "$work/checks" || exit 3
# t NAME SH: a test whose command is SH (run by sh; $CK = bg-check with
# this test's checks file)
cat >"$work/src/CMakeLists.txt" <<CML || exit 3
cmake_minimum_required(VERSION 3.16)
project(notrun NONE)
enable_testing()
function(t name sh)
  add_test(NAME \${name} COMMAND sh -c "\${sh}")
  set_tests_properties(\${name} PROPERTIES ENVIRONMENT "BG_CHECKS_FILE=$work/checks/\${name}.jsonl;BG_TEST_NAME=\${name};BG_SUITE=digest_agreement" \${ARGN})
endfunction()
t(digest.runtime.dataset "'$check' --suite digest_agreement --name digest.runtime.dataset.build $setup_cmd" FIXTURES_SETUP dataset)
t(digest.runtime.fm1 "exit 1" FIXTURES_REQUIRED dataset)
t(digest.runtime.fm2 "'$check' --suite digest_agreement --name digest.runtime.fm2.chain --verdict pass" FIXTURES_REQUIRED dataset)
t(lib.unit.other "'$check' --suite lib --name lib.unit.other --verdict pass")
CML
"$cmake" -S "$work/src" -B "$work/b" >"$work/cmake.log" 2>&1 || { echo "buildgate: notrun_test.sh: scratch configure failed (see $work/cmake.log)" >&2; exit 3; }
"$ctest" --test-dir "$work/b" --show-only=json-v1 >"$work/tests.json" 2>"$work/ctest.err" || exit 3
"$ctest" --test-dir "$work/b" --output-junit "$work/junit.xml" >"$work/ctest.log" 2>&1
"$report" --checks-dir "$work/checks" --out-dir "$work/out" --tests "$work/tests.json" >"$work/stdout" 2>"$work/stderr"
rc=$?
r=$work/results.min.json # results.json on one line, without layout blanks
tr -d ' \t\n' <"$work/out/results.json" >"$r" || exit 3
count() { # verdict: the summary's count
    sed -n 's/.*"summary":{[^}]*"'"$1"'":\([0-9]*\).*/\1/p' "$r" | head -n 1
}
n_notrun=$(grep -o '"observed":"notrun:digest.runtime.datasetfailed"' "$r" | grep -c .)
n_nofile=$(grep -o '"observed":"nochecksfile' "$r" | grep -c .)
observed="exit $rc; fail $(count fail); skip $(count skip); $n_notrun 'not run: digest.runtime.dataset failed'; $n_nofile 'no checks file'"
case $case in
setup_failed) expected="exit 1; fail 1; skip 2; 2 'not run: digest.runtime.dataset failed'; 0 'no checks file'" ;;
setup_passed) expected="exit 1; fail 1; skip 0; 0 'not run: digest.runtime.dataset failed'; 1 'no checks file'" ;;
esac
"$check" --suite lib --name "notrun.$case" --expect-equal "$expected" "$observed"
