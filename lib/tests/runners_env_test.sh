#!/bin/sh
# runners_env_test.sh — BG_X86_RUNNERS at configure time (cmake/BuildgateRunners.cmake):
# the environment wins at every configure of an existing tree, the cache keeps
# the value when the variable is unset, junk stops the configure with bg-runner's
# one line, and the tests' environment is pinned to the configured value
# (cmake/BuildgateTest.cmake).  A scratch CMake project includes the two modules
# (a configure is about a second: it compiles the host bg-runner).
#
# Usage: runners_env_test.sh BG_CHECK SOURCE_DIR WORK [--mutant]
#   --mutant  the same cases with a copy of BuildgateRunners.cmake whose
#             environment override is taken out (the old behaviour): the
#             env_wins, cache_kept, junk and pinned checks fail (<test>.mutant_caught)
# Checks (suite lib): <test>.fresh, .env_wins, .cache_kept, .junk, .pinned.
set -u
[ $# -ge 3 ] || { echo "buildgate: runners_env_test.sh: want BG_CHECK SOURCE_DIR WORK [--mutant]" >&2; exit 2; }
check=$1 src=$2 work=$3
n=${BG_TEST_NAME:-lib.unit.runners_env}
rm -rf "$work" && mkdir -p "$work/p/cmake" || exit 3
cp "$src/cmake/BuildgateRunners.cmake" "$src/cmake/BuildgateTest.cmake" "$src/cmake/BuildgateSanitizers.cmake" \
   "$work/p/cmake/" || exit 3
if [ "${4:-}" = --mutant ]; then
  # a source tree whose cmake/ is the mutant and whose lib/ is the real one
  mkdir -p "$work/src" && cp -R "$src/cmake" "$work/src/cmake" && ln -s "$src/lib" "$work/src/lib" || exit 3
  sed -i.orig '/^if(DEFINED ENV{BG_X86_RUNNERS})$/,/^endif()$/d' "$work/src/cmake/BuildgateRunners.cmake" || exit 3
  BG_CHECKS_FILE="$work/mutant.jsonl" BG_TEST_NAME=mutant "$0" "$check" "$work/src" "$work/run" >"$work/mutant.out" 2>&1
  fails=$(grep -c '"verdict": *"fail"' "$work/mutant.jsonl" 2>/dev/null)
  exec "$check" --suite lib --name "$n.mutant_caught" --expect-equal "exit 1, 4 failing checks" "exit 1, ${fails:-0} failing checks"
fi
cat >"$work/p/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.16)
project(runners_env C)
set(PROJECT_SOURCE_DIR "$src")  # the registry's sources (lib/)
list(APPEND CMAKE_MODULE_PATH \${CMAKE_CURRENT_SOURCE_DIR}/cmake)
include(\${CMAKE_CURRENT_SOURCE_DIR}/cmake/BuildgateRunners.cmake)
include(\${CMAKE_CURRENT_SOURCE_DIR}/cmake/BuildgateTest.cmake)
file(WRITE \${CMAKE_BINARY_DIR}/runners.txt "\${BG_RUNNERS}")
enable_testing()
set(BG_CHECKS_DIR \${CMAKE_BINARY_DIR}/checks)
bg_add_test(NAME lib.probe SUITE lib LABELS unit COMMAND true)
EOF
r=0
# conf <env-value or -unset-> : configure the scratch tree; prints "exit N: <user runners or error line>"
conf() {
  if [ "$1" = -unset- ]; then (unset BG_X86_RUNNERS; cmake -S "$work/p" -B "$work/b" >"$work/log" 2>&1)
  else BG_X86_RUNNERS=$1 cmake -S "$work/p" -B "$work/b" >"$work/log" 2>&1; fi
  rc=$?
  if [ $rc -eq 0 ]; then echo "exit 0: $(tr ';' '\n' <"$work/b/runners.txt" | grep -x 'myq[0-9]' | paste -sd, -)"
  else echo "exit $rc: $(grep -m1 -o 'buildgate: bg-runner: .*' "$work/log")"; fi
}
ok() { "$check" --suite lib --name "$n.$1" --expect-equal "$2" "$3" || r=1; }
ok fresh "exit 0: myq1" "$(conf 'myq1=true')"
ok env_wins "exit 0: myq2" "$(conf 'myq2=true')"
ok cache_kept "exit 0: myq2" "$(conf -unset-)"
junk=$(conf 'junk')
case "$junk" in "exit 1: buildgate: bg-runner: BG_X86_RUNNERS entry 'junk'"*) junk="exit 1: buildgate: bg-runner: BG_X86_RUNNERS entry 'junk'" ;; esac
ok junk "exit 1: buildgate: bg-runner: BG_X86_RUNNERS entry 'junk'" "$junk"
# the tests' environment: the configured value, even when ctest's own differs
conf '' >/dev/null
env=$(BG_X86_RUNNERS='stray=false' ctest --test-dir "$work/b" --show-only=json-v1 2>/dev/null |
      grep -o '"BG_X86_RUNNERS=[^"]*"' | head -n 1)
ok pinned '"BG_X86_RUNNERS="' "${env:-no BG_X86_RUNNERS in the environment of the test}"
exit $r
