#!/usr/bin/env bash
# bisect-work.sh — ci/bisect's --work folder and its interruption, on a
# two-commit throwaway history with a stand-in cmake on PATH (no build,
# seconds; label selftest).  The real bisect, bisect-lib.sh, common.sh and
# bg_cli.sh are run from CI_DIR.
#
# Usage: bisect-work.sh CASE BG_CHECK CI_DIR WORK [--mutant]
#   CASE precious   --work DIR holding a user's notes/todo.txt: exit 2, one
#                   line "... exists, is not empty", the file still there
#        dot        --work . in the checkout: exit 2, one line, the checkout intact
#        own        a configure failure (exit 3) with --work an existing empty
#                   folder (left there, empty) and with a new one (removed)
#        interrupt  SIGTERM, then SIGINT, while the stand-in cmake runs (30 s):
#                   exit 143/130 within 10 s (not when the cmake ends), one line "buildgate: ci/bisect: interrupted by
#                   SIG…", the cmake stopped, --work left empty, no worktree left
#   --mutant        CASE against a copy of ci/ with the fix taken out (sed: the
#                   refusal and the removal of its own files only; the signal
#                   passed to the step's process group); passes only when the
#                   checks of CASE fail
# Checks (suite ci): <test>.<what>, one per promise above.
set -u
[ $# -ge 4 ] || { echo "buildgate: bisect-work.sh: want CASE BG_CHECK CI_DIR WORK [--mutant]" >&2; exit 2; }
case_=$1 check=$2 cidir=$3 work=$4
n=${BG_TEST_NAME:-ci.selftest.bisect_work_$case_}
rm -rf "$work" && mkdir -p "$work/bin" || exit 3
work=$(cd "$work" && pwd) cidir=$(cd "$cidir" && pwd) || exit 3

if [ "${5:-}" = --mutant ]; then
  m=$work/mutant
  mkdir -p "$m/ci" "$m/lib/sh" && cp "$cidir/bisect" "$cidir/bisect-lib.sh" "$cidir/common.sh" "$m/ci/" &&
    cp "$cidir/../lib/sh/bg_cli.sh" "$m/lib/sh/" || exit 3
  sed -i -e 's/^ *die 2 "--work $work: exists, is not empty.*/    :/' \
         -e 's/^  if \[ "$work_made" = 1 \]; then rm -rf "$work"; return; fi$/  rm -rf "$work"; return/' "$m/ci/bisect"
  sed -i 's/kill "-$1" -- "-$BG_STEP_PID"/:/' "$m/ci/common.sh"
  sed -i '/^  trap .kill -/d' "$m/ci/bisect-lib.sh"
  BG_CHECKS_FILE="$work/mutant.jsonl" BG_TEST_NAME=mutant "$0" "$case_" "$check" "$m/ci" "$work/run" >"$work/mutant.out" 2>&1
  fails=$(grep -c '"verdict": *"fail"' "$work/mutant.jsonl" 2>/dev/null)
  "$check" --suite ci --name "$n.mutant_caught" --expect-equal "some checks fail" \
    "$([ "${fails:-0}" -gt 0 ] && echo "some checks fail" || echo "no check fails: $(cat "$work/mutant.out")")"
  exit $?
fi

# stand-in cmake: records its pid, sleeps STUB_SLEEP seconds if set, fails (a configure error)
cat >"$work/bin/cmake" <<'EOF'
#!/bin/sh
echo $$ >"$STUB_PID"
[ -n "${STUB_SLEEP:-}" ] && sleep "$STUB_SLEEP"
echo "CMake Error at CMakeLists.txt:1 (message):"; echo "  stand-in"
exit 1
EOF
chmod +x "$work/bin/cmake"
repo=$work/repo
git init -q "$repo" && git -C "$repo" config user.email t@t && git -C "$repo" config user.name t &&
  echo one >"$repo/a" && git -C "$repo" add a && git -C "$repo" commit -qm one &&
  echo two >"$repo/a" && git -C "$repo" commit -qam two || exit 3
export PATH="$work/bin:$PATH" STUB_PID="$work/stub.pid"
ok=0
# bisect <work-arg>: ci/bisect from the checkout, output in $work/out, $work/err
bisect() { (cd "$repo" && exec "$cidir/bisect" --checks nan.fixture --good HEAD~1 --work "$1") >"$work/out" 2>"$work/err"; }
# refused: the exit, the number of stderr lines and the refusal up to "not empty"
refused() { echo "exit $1; $(wc -l <"$work/err") line; $(sed -n 's/ and was not made by.*//p' "$work/err")"; }
worktrees() { git -C "$repo" worktree list | wc -l; }

case "$case_" in
precious)
  mkdir -p "$work/x/notes" && echo precious >"$work/x/notes/todo.txt"
  bisect "$work/x"; rc=$?
  "$check" --suite ci --name "$n.refused" \
    --expect-equal "exit 2; 1 line; buildgate: ci/bisect: --work $work/x: exists, is not empty" "$(refused $rc)" || ok=1
  "$check" --suite ci --name "$n.file_kept" --expect-equal "precious" "$(cat "$work/x/notes/todo.txt" 2>&1)" || ok=1
  ;;
dot)
  bisect .; rc=$?
  "$check" --suite ci --name "$n.refused" \
    --expect-equal "exit 2; 1 line; buildgate: ci/bisect: --work .: exists, is not empty" "$(refused $rc)" || ok=1
  "$check" --suite ci --name "$n.checkout_kept" --expect-equal "a: two; 1 worktree; no src" \
    "a: $(cat "$repo/a" 2>&1); $(worktrees) worktree; $([ -e "$repo/src" ] && echo src left || echo no src)" || ok=1
  ;;
own)
  mkdir -p "$work/empty"
  bisect "$work/empty"; rc=$?
  "$check" --suite ci --name "$n.existing" --expect-equal "exit 3; $work/empty there, empty" \
    "exit $rc; $work/empty $([ -d "$work/empty" ] && echo there || echo gone), $([ -z "$(ls -A "$work/empty" 2>/dev/null)" ] && echo empty || echo "holding $(ls -A "$work/empty" | tr '\n' ' ')")" || ok=1
  bisect "$work/new"; rc=$?
  "$check" --suite ci --name "$n.new" --expect-equal "exit 3; $work/new removed" \
    "exit $rc; $work/new $([ -e "$work/new" ] && echo left || echo removed)" || ok=1
  ;;
interrupt)
  set -m  # ci/bisect in its own process group: a background job that does not ignore SIGINT
  for sig in TERM INT; do
    rm -rf "$work/empty" "$STUB_PID" && mkdir -p "$work/empty"
    (cd "$repo" && STUB_SLEEP=30 exec "$cidir/bisect" --checks nan.fixture --good HEAD~1 --work "$work/empty") \
      >"$work/out" 2>"$work/err" &
    pid=$!
    for _ in $(seq 1 300); do [ -s "$STUB_PID" ] && break; sleep 0.1; done
    sleep 0.3
    t0=$(date +%s)
    kill -"$sig" "$pid"
    wait "$pid"; rc=$?
    took=$(($(date +%s) - t0)) in="within 10 s"
    [ "$took" -le 10 ] || in="after ${took} s"
    want=143; [ "$sig" = INT ] && want=130
    "$check" --suite ci --name "$n.$sig.exit" \
      --expect-equal "exit $want within 10 s; 1 line; buildgate: ci/bisect: interrupted by SIG$sig: no culprit named" \
      "exit $rc $in; $(wc -l <"$work/err") line; $(head -1 "$work/err")" || ok=1
    spid=$(cat "$STUB_PID" 2>/dev/null) running=stopped
    sleep 0.3
    [ -n "$spid" ] && kill -0 "$spid" 2>/dev/null && { running=running; kill "$spid"; }
    "$check" --suite ci --name "$n.$sig.cmake_stopped" --expect-equal "stopped" "$running" || ok=1
    "$check" --suite ci --name "$n.$sig.work_left" --expect-equal "--work empty; 1 worktree" \
      "--work $([ -z "$(ls -A "$work/empty" 2>/dev/null)" ] && echo empty || echo "holding $(ls -A "$work/empty" | tr '\n' ' ')"); $(worktrees) worktree" || ok=1
  done
  ;;
*) echo "buildgate: bisect-work.sh: unknown case '$case_' (precious, dot, own, interrupt)" >&2; exit 2 ;;
esac
exit $ok
