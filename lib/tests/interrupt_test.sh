#!/usr/bin/env bash
# interrupt_test.sh — an interrupt ends everything a test started (bg-run,
# bg_proc): a nan-check whose user runner (BG_X86_RUNNERS) hangs, ignoring
# SIGINT/SIGTERM/SIGHUP, with a background child of its own (sleep 1000).
# Every process of it is looked up by pid afterwards (label selftest).
#
# Usage: interrupt_test.sh CASE BG_CHECK BG_RUN NAN_CHECK NAN_PROBE WORK
#   CASE INT|TERM  ctest runs the test (a CTestTestfile.cmake of its own, in its
#                  own process group, as a terminal's Ctrl-C or ci/gate reaches
#                  it); SIG<CASE> to ctest's group once the runner hangs
#        timeout   bg-run --timeout 20 runs nan-check directly, no signal
# Checks (suite lib): <test>.ended  ctest / bg-run ended within 40 s;
#                     <test>.no_orphan  none of nan-check, the runner and its
#                     sleep runs 5 s later ("0 of 3 left")
# Exit: 0 all pass, 1 a check failed, 2 usage, 3 I/O.
set -u
[ $# -eq 6 ] || { echo "buildgate: interrupt_test.sh: want CASE BG_CHECK BG_RUN NAN_CHECK NAN_PROBE WORK" >&2; exit 2; }
case_=$1 check=$2 bgrun=$3 nancheck=$4 probe=$5 work=$6
n=${BG_TEST_NAME:-lib.selftest.interrupt_$case_}
case "$case_" in INT|TERM|timeout) ;; *) echo "buildgate: interrupt_test.sh: unknown case '$case_' (INT, TERM, timeout)" >&2; exit 2 ;; esac
rm -rf "$work" && mkdir -p "$work/ct" || exit 3
work=$(cd "$work" && pwd)
pids=$work/pids
BG_FIXTURES_DIR=$(cd "$(dirname "$0")/../../fixtures" && pwd) || exit 3
export BG_FIXTURES_DIR

# the hanging runner: records nan-check's pid (its parent), its own and its child's
cat >"$work/hang-runner.sh" <<EOF || exit 3
#!/bin/sh
trap '' INT TERM HUP
echo \$PPID >>"$pids"
echo \$\$ >>"$pids"
sleep 1000 &
echo \$! >>"$pids"
wait
EOF
chmod +x "$work/hang-runner.sh" || exit 3

# alive PID: runs (a zombie, dead but not reaped, does not count)
alive() {
  st=$(ps -o stat= -p "$1" 2>/dev/null) || return 1
  case "$st" in Z*|'') return 1 ;; esac
  return 0
}
# waits until the runner has written its 3 pids (up to 60 s, or until the job ended)
wait_hang() {
  local until=$((SECONDS + 60))
  while [ "$(cat "$pids" 2>/dev/null | wc -l)" -lt 3 ] && [ $SECONDS -lt $until ] && alive "$job"; do sleep 0.2; done
  sleep 0.3
}

set -m  # each background job in its own process group, as ctest under ci/gate
run="$bgrun --checks $work/hang.jsonl --suite lib --test hang"
if [ "$case_" = timeout ]; then
  BG_X86_RUNNERS="hang=$work/hang-runner.sh" $run --timeout 20 -- \
    "$nancheck" --runner hang --context pthread --probe "$probe" >"$work/log" 2>&1 &
  job=$!
else
  cat >"$work/ct/CTestTestfile.cmake" <<EOF || exit 3
add_test(hang "$bgrun" "--checks" "$work/hang.jsonl" "--suite" "lib" "--test" "hang" "--timeout" "600" "--" "$nancheck" "--runner" "hang" "--context" "pthread" "--probe" "$probe")
set_tests_properties(hang PROPERTIES ENVIRONMENT "BG_X86_RUNNERS=hang=$work/hang-runner.sh")
EOF
  ctest --test-dir "$work/ct" >"$work/log" 2>&1 &
  job=$!
  wait_hang
  kill -"$case_" -- "-$job"
fi
wait_hang
# ctest / bg-run ends (the test's runner ignores the signal: SIGKILL after a grace)
until=$((SECONDS + 40))
while alive "$job" && [ $SECONDS -lt $until ]; do sleep 0.2; done
ok=0
ended=ended
if alive "$job"; then
  ended="still running after 40 s: $(ps -o pid=,stat=,args= -g "$job" 2>/dev/null | tr '\n' ';')"
  kill -KILL -- "-$job" 2>/dev/null
fi
"$check" --suite lib --name "$n.ended" --expect-equal ended "$ended" || ok=1
wait "$job" 2>/dev/null
until=$((SECONDS + 5))
left=""
while :; do
  left=""
  for p in $(cat "$pids" 2>/dev/null); do alive "$p" && left="$left $p($(ps -o comm= -p "$p" 2>/dev/null))"; done
  [ -z "$left" ] || [ $SECONDS -ge $until ] && break
  sleep 0.2
done
total=$(cat "$pids" 2>/dev/null | wc -l | tr -d ' ')
nleft=$(echo $left | wc -w | tr -d ' ')
"$check" --suite lib --name "$n.no_orphan" --expect-equal "0 of 3 left" \
  "$nleft of $total left${left:+:$left}" || ok=1
# what this test started and left behind goes now (its own pids only)
for p in $(cat "$pids" 2>/dev/null); do alive "$p" && kill -KILL "$p" 2>/dev/null; done
alive "$job" && kill -KILL -- "-$job" 2>/dev/null
exit $ok
