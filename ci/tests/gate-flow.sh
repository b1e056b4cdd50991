#!/usr/bin/env bash
# gate-flow.sh — ci/gate's own flow, with stand-in cmake and ctest on PATH (no
# build, seconds): what a user sees of the report folder (label selftest).
#
# Usage: gate-flow.sh CASE BG_CHECK BG_REPORT GATE WORK [--mutant]
#   CASE report_dir  ci/gate --report-dir out/ run from another directory: the
#                    previous run's proposed known lines kept in
#                    out/proposed-known.<UTC time>/ (two more runs with
#                    BG_KEEP_PROPOSALS=2: the two newest kept, the oldest removed
#                    and said by name);
#                    junit.xml lands in the caller's out/ (not the build tree's),
#                    results.json names it relative to the report dir, no '//'
#                    in what ci/gate prints, the configure log inside the build
#                    tree, no absolute path of this machine in report.md and
#                    results.json (report dir and source tree stripped)
#        interrupt   SIGINT, then SIGTERM, while the tests run: exit 130/143, one
#                    line "buildgate: ci/gate: interrupted by SIG… during the
#                    tests", the running tests stopped, and the report folder
#                    says INCOMPLETE (the previous run's PASS and results.json gone)
#        configure_fail  cmake prints buildgate status lines ("-- buildgate: runners:
#                    ...") then fails on message(FATAL_ERROR "boom"): exit 3, the
#                    one line and report.md give "boom" as the cause (not a status
#                    line) and name <build-dir>/configure.log
#        build_fail  the build fails on a compile error: the output still on the
#                    console, kept in <build-dir>/build.log; the one line and
#                    report.md name the "error:" line and build.log
#        lock        two runs in one tree: while a ci/gate run is in its tests, a
#                    second ci/gate in its build tree, one with another build tree
#                    but its report folder, and a ci/test in its build tree are
#                    each refused in one line naming the first run's pid and
#                    command (exit 6), and the first run's report is its own
#                    (PASS, one check); a run killed with SIGKILL leaves its lock,
#                    which the next run takes over (said in one line, exit 0)
#        coverage    a host without valgrind and qemu-x86_64 (a stand-in bg-runner
#                    --list says so): locally ci/gate --label nan passes and says
#                    "not checked: qemu-x86_64, valgrind (not installed →
#                    ci/provision)" in report.md's first 10 lines, report.html's
#                    header and the console's last lines, with each suite's share
#                    that ran; with BG_REQUIRE_RUNNERS (gate.yml's matrix column)
#                    naming them it fails naming them (exit 1, FAIL report); an
#                    unknown or malformed --require-runners is one line, exit 2,
#                    before any step, the previous report left as it was
#   BG_REPORT        the real bg-report (the stand-in build tree runs it)
#   --mutant         run CASE against a copy of GATE with the fix taken out
#                    (sed); passes only when the checks of CASE fail
# Checks (suite ci): <test>.<what>, one per promise above.
set -u
[ $# -ge 5 ] || { echo "buildgate: gate-flow.sh: want CASE BG_CHECK BG_REPORT GATE WORK [--mutant]" >&2; exit 2; }
case_=$1 check=$2 report=$3 gate=$4 work=$5
n=${BG_TEST_NAME:-ci.selftest.gate_$case_}
rm -rf "$work" && mkdir -p "$work/bin" || exit 3
work=$(cd "$work" && pwd)

if [ "${6:-}" = --mutant ]; then
  # the copy needs the lib's shell conventions beside it, as in the tree (without
  # them every mutant failed for that reason alone, whatever it changed)
  mkdir -p "$work/mutant/ci" "$work/mutant/lib/sh"
  cp "$(dirname "$gate")/common.sh" "$work/mutant/ci/common.sh" &&
    cp "$(dirname "$gate")/../lib/sh/bg_cli.sh" "$work/mutant/lib/sh/" || exit 3
  case "$case_" in
    report_dir)
      sed -e '/^report_dir=$(cd "$report_dir" \&\& pwd)$/d' -e 's/ --strip-prefix "[^"]*"//g' "$gate" >"$work/mutant/ci/gate"
      sed -i.bak 's|local log="$dir/configure.log"|local log="$dir.configure.log"|' "$work/mutant/ci/common.sh" ;;
    configure_fail)  # the old cause: the first buildgate line, a status line
      cp "$gate" "$work/mutant/ci/gate"
      sed -i.bak '/^bg_log_cause() {$/a\  grep -m 1 -o "buildgate: .*" "$1" \&\& return' "$work/mutant/ci/common.sh" ;;
    build_fail)  # the old build step: no build.log, so configure.log is named
      cp "$gate" "$work/mutant/ci/gate"
      sed -i.bak 's/ 2>&1 | tee "$blog"$//' "$work/mutant/ci/common.sh" ;;
    interrupt)
      sed -e "/^trap 'on_signal/d" -e '/^printf .# buildgate: INCOMPLETE/d' \
          -e 's|^rm -rf "$report_dir/results.json"|: |' "$gate" >"$work/mutant/ci/gate" ;;
    coverage)  # the old gate: nothing said, nothing required
      sed -e '/^not_checked=/d' -e 's|^  BG_CHECKS_FILE="$checks/gate.required_runners.jsonl"|  BG_CHECKS_FILE=/dev/null|' "$gate" >"$work/mutant/ci/gate" ;;
    lock)  # no lock: the second run goes ahead
      sed '/^bg_lock_tree /d' "$gate" >"$work/mutant/ci/gate"
      sed '/^bg_lock_tree /d' "$(dirname "$gate")/test" >"$work/mutant/ci/test" && chmod +x "$work/mutant/ci/test" ;;
  esac
  chmod +x "$work/mutant/ci/gate"
  BG_CHECKS_FILE="$work/mutant.jsonl" BG_TEST_NAME=mutant "$0" "$case_" "$check" "$report" \
    "$work/mutant/ci/gate" "$work/run" >"$work/mutant.out" 2>&1
  fails=$(grep -c '"verdict": *"fail"' "$work/mutant.jsonl" 2>/dev/null)
  "$check" --suite ci --name "$n.mutant_caught" --expect-equal "some checks fail" \
    "$([ "${fails:-0}" -gt 0 ] && echo "some checks fail" || echo "no check fails: $(cat "$work/mutant.out")")"
  exit $?
fi

# Stand-ins: cmake configures nothing, ctest emulates what ci/gate asks of it
# (a relative --output-junit is resolved against --test-dir, as CTest does).
# STUB_FAIL=configure|build: that step fails as CMake and ninja report it.
cat >"$work/bin/cmake" <<'EOF'
#!/bin/sh
b="" build=0
while [ $# -gt 0 ]; do [ "$1" = -B ] && b=$2; [ "$1" = --build ] && build=1; shift; done
if [ "$build" = 1 ]; then
  [ "${STUB_FAIL:-}" = build ] || exit 0
  printf '%s\n' "[1/2] Building C object lib/x.o" "FAILED: lib/x.o" "/usr/bin/cc -c ../lib/x.c" \
    "../lib/x.c:3:1: error: expected ';' before '}' token" "ninja: build stopped: subcommand failed."
  exit 1
fi
[ -n "$b" ] && mkdir -p "$b/checks" && echo "-- buildgate: stand-in configure"
if [ "${STUB_FAIL:-}" = configure ]; then
  printf '%s\n' "-- buildgate: runners: qemu-aarch64 10.0 (cache), valgrind 3.24 (cache)" \
    "CMake Error at CMakeLists.txt:3 (message):" "  boom" "" "" "-- Configuring incomplete, errors occurred!"
  exit 1
fi
exit 0
EOF
cat >"$work/bin/ctest" <<'EOF'
#!/bin/sh
dir="" junit="" mode=run
while [ $# -gt 0 ]; do
  case "$1" in
    --test-dir) dir=$2; shift ;;
    --output-junit) junit=$2; shift ;;
    --show-only=json-v1) mode=list ;;
    -N) mode=count ;;
  esac
  shift
done
case $mode in
  list) echo '{"kind":"ctestInfo","version":{"major":1,"minor":0},"tests":[]}'; exit 0 ;;
  count) echo "Total Tests: 1"; exit 0 ;;
esac
echo $$ >"$dir/stub-ctest.pid"
[ -n "${STUB_SLEEP:-}" ] && sleep "$STUB_SLEEP"
BG_CHECKS_FILE="$dir/checks/stub.jsonl" "$STUB_BG_CHECK" --suite ci --name stub.ok --verdict pass \
  --expected "$STUB_ROOT/docs/ci.md" --observed "$STUB_ROOT/docs/ci.md"
case "$junit" in /*) ;; *) junit="$dir/$junit" ;; esac
mkdir -p "$(dirname "$junit")" && echo '<testsuite tests="1"/>' >"$junit"
EOF
chmod +x "$work/bin/cmake" "$work/bin/ctest"
mkdir -p "$work/b/lib" && printf '#!/bin/sh\nexec "%s" "$@"\n' "$report" >"$work/b/lib/bg-report" &&
  chmod +x "$work/b/lib/bg-report" || exit 3
root=$(cd "$(dirname "$gate")/.." && pwd)
export PATH="$work/bin:$PATH" STUB_BG_CHECK="$check" STUB_ROOT="$root" BG_JOBS=1
ok=0

case "$case_" in
report_dir)
  # a previous run's proposed known lines (maybe under review) are moved aside, never lost
  # (.buildgate-report: the folder a previous ci/gate run marked as its own)
  mkdir -p "$work/out/proposed-known/nan_semantics" && echo "line under review" >"$work/out/proposed-known/nan_semantics/valgrind.tsv" &&
    : >"$work/out/.buildgate-report"
  (cd "$work" && "$gate" --no-provision --build-dir b --report-dir out/ >"$work/log" 2>"$work/err")
  rc=$?
  "$check" --suite ci --name "$n.proposals_kept" --expect-equal "line under review; said" \
    "$(cat "$work"/out/proposed-known.2*/nan_semantics/valgrind.tsv 2>/dev/null || echo lost); $(grep -q 'moved to .*/proposed-known\.2' "$work/log" && echo said || echo "not said")" || ok=1
  # a history, never silently replaced: the newest BG_KEEP_PROPOSALS, an older one removed by name
  for nth in second third; do
    mkdir -p "$work/out/proposed-known/nan_semantics" && echo "$nth" >"$work/out/proposed-known/nan_semantics/valgrind.tsv"
    sleep 1  # the history's names are the UTC second of the move
    (cd "$work" && BG_KEEP_PROPOSALS=2 "$gate" --no-provision --build-dir b --report-dir out/ >"$work/log.$nth" 2>&1)
  done
  "$check" --suite ci --name "$n.proposals_history" \
    --expect-equal "second third; the oldest removed, said" \
    "$(cat "$work"/out/proposed-known.2*/nan_semantics/valgrind.tsv 2>/dev/null | paste -sd' ' -); $(grep -q 'removed the oldest proposals .*proposed-known\.2.* (the newest 2 are kept' "$work/log.third" && echo "the oldest removed, said" || echo "not said")" || ok=1
  "$check" --suite ci --name "$n.exit" --expect-equal "exit 0" "exit $rc$(head -c 300 "$work/err")" || ok=1
  jkey=$(sed -n 's/^[[:space:]]*"junit":[[:space:]]*"\([^"]*\)".*/\1/p' "$work/out/results.json" 2>/dev/null)
  "$check" --suite ci --name "$n.junit" \
    --expect-equal "out/junit.xml written, results.json junit: junit.xml" \
    "out/junit.xml $([ -f "$work/out/junit.xml" ] && echo written || echo missing), results.json junit: ${jkey:-none}" || ok=1
  "$check" --suite ci --name "$n.no_double_slash" --expect-equal "0 lines with //" \
    "$(grep -c '//' "$work/log") lines with //" || ok=1
  "$check" --suite ci --name "$n.configure_log" \
    --expect-equal "b/configure.log present, b.configure.log absent" \
    "b/configure.log $([ -f "$work/b/configure.log" ] && echo present || echo absent), b.configure.log $([ -e "$work/b.configure.log" ] && echo present || echo absent)" || ok=1
  "$check" --suite ci --name "$n.relative_paths" --expect-equal "0 lines naming $work" \
    "$(cat "$work/out/report.md" "$work/out/results.json" 2>/dev/null | grep -cF "$work") lines naming $work" || ok=1
  # a check naming a file of the source tree: repository-relative in the report
  "$check" --suite ci --name "$n.source_paths" --expect-equal "0 lines naming $root/" \
    "$(cat "$work/out/report.md" "$work/out/results.json" 2>/dev/null | grep -cF "$root/") lines naming $root/" || ok=1
  ;;
configure_fail|build_fail)
  STUB_FAIL=${case_%_fail} "$gate" --no-provision --build-dir "$work/b" --report-dir "$work/out" >"$work/log" 2>"$work/err"
  rc=$?
  if [ "$case_" = configure_fail ]; then
    cause=boom log=$work/b/configure.log
    line="buildgate: ci/gate: configure: cmake failed: $cause (log above, also in $log)"
  else
    cause="../lib/x.c:3:1: error: expected ';' before '}' token" log=$work/b/build.log
    line="buildgate: ci/gate: build: the build failed: $cause (output above, also in $log)"
    "$check" --suite ci --name "$n.console_and_log" --expect-equal "on the console; in build.log" \
      "$(grep -qxF "$cause" "$work/log" && echo "on the console" || echo "not on the console"); $(grep -qxF "$cause" "$log" 2>/dev/null && echo "in build.log" || echo "not in build.log")" || ok=1
  fi
  "$check" --suite ci --name "$n.line" --expect-equal "exit 3; $line" "exit $rc; $(grep '^buildgate:' "$work/err" | tail -n 1)" || ok=1
  "$check" --suite ci --name "$n.report" --expect-equal "configure or build failed: $cause; log: $log" \
    "$(sed -n 3p "$work/out/report.md")" || ok=1
  ;;
interrupt)
  set -m  # the gate in its own process group: a background job that does not ignore SIGINT
  for sig in INT TERM; do
    rm -rf "$work/out" && mkdir -p "$work/out" && rm -f "$work/b/stub-ctest.pid"
    echo "# buildgate: PASS" >"$work/out/report.md"
    echo '{"schema":1}' >"$work/out/results.json"
    : >"$work/out/.buildgate-report" # a previous run's
    STUB_SLEEP=120 "$gate" --no-provision --build-dir "$work/b" --report-dir "$work/out" \
      >"$work/log" 2>"$work/err" &
    pid=$!
    for _ in $(seq 1 600); do [ -s "$work/b/stub-ctest.pid" ] && break; sleep 0.1; done
    sleep 0.5
    kill -"$sig" "$pid"
    wait "$pid"
    rc=$?
    want=130; [ "$sig" = TERM ] && want=143
    "$check" --suite ci --name "$n.$sig.exit" \
      --expect-equal "exit $want; buildgate: ci/gate: interrupted by SIG$sig during the tests" \
      "exit $rc; $(sed -n 's/: no verdict.*//p' "$work/err" | head -1)" || ok=1
    spid=$(cat "$work/b/stub-ctest.pid" 2>/dev/null)
    sleep 0.5
    running=stopped
    [ -n "$spid" ] && kill -0 "$spid" 2>/dev/null && { running=running; kill "$spid"; }
    "$check" --suite ci --name "$n.$sig.tests_stopped" --expect-equal "stopped" "$running" || ok=1
    "$check" --suite ci --name "$n.$sig.report" \
      --expect-equal "# buildgate: INCOMPLETE; results.json absent" \
      "$(head -1 "$work/out/report.md"); results.json $([ -e "$work/out/results.json" ] && echo present || echo absent)" || ok=1
  done
  ;;
lock)
  set -m  # each run in its own process group: the killed run's stand-in ctest goes with it
  STUB_SLEEP=20 "$gate" --no-provision --build-dir "$work/b" --report-dir "$work/out" >"$work/log" 2>"$work/err" &
  first=$!
  for _ in $(seq 1 600); do [ -s "$work/b/stub-ctest.pid" ] && break; sleep 0.1; done
  cmdline="ci/gate --no-provision --build-dir $work/b --report-dir $work/out"
  "$gate" --no-provision --build-dir "$work/b" --report-dir "$work/out2" >"$work/log2" 2>"$work/err2"
  rc=$?
  "$check" --suite ci --name "$n.same_build_tree" \
    --expect-equal "exit 6; 1 line; buildgate: ci/gate: build tree $work/b is in use by another run (pid $first: $cmdline); wait for it to end or use another folder" \
    "exit $rc; $(wc -l <"$work/err2" | tr -d ' ') line; $(head -c 600 "$work/err2")" || ok=1
  "$gate" --no-provision --build-dir "$work/b2" --report-dir "$work/out" >"$work/log3" 2>"$work/err3"
  rc=$?
  "$check" --suite ci --name "$n.same_report_folder" \
    --expect-equal "exit 6; buildgate: ci/gate: report folder $work/out is in use by another run (pid $first: $cmdline); wait for it to end or use another folder" \
    "exit $rc; $(head -c 600 "$work/err3")" || ok=1
  "$(dirname "$gate")/test" --no-provision --build-dir "$work/b" >"$work/log4" 2>"$work/err4"
  rc=$?
  "$check" --suite ci --name "$n.ci_test" \
    --expect-equal "exit 6; buildgate: ci/test: build tree $work/b is in use by another run (pid $first: $cmdline); wait for it to end or use another folder" \
    "exit $rc; $(head -c 600 "$work/err4")" || ok=1
  wait "$first"
  rc=$?
  "$check" --suite ci --name "$n.first_report" --expect-equal "exit 0; # buildgate report: PASS ✅; 1 checks in results.json" \
    "exit $rc; $(head -1 "$work/out/report.md"); $(grep -o '"name"' "$work/out/results.json" 2>/dev/null | wc -l | tr -d ' ') checks in results.json" || ok=1
  # a killed run (SIGKILL to its group: nothing of it left) leaves its lock behind
  rm -f "$work/b/stub-ctest.pid"
  STUB_SLEEP=20 "$gate" --no-provision --build-dir "$work/b" --report-dir "$work/out" >"$work/log5" 2>"$work/err5" &
  killed=$!
  for _ in $(seq 1 600); do [ -s "$work/b/stub-ctest.pid" ] && break; sleep 0.1; done
  kill -KILL -- "-$killed"
  wait "$killed" 2>/dev/null
  left=$([ -s "$work/b/.buildgate.lock/owner" ] && echo left || echo "not left")
  "$gate" --no-provision --build-dir "$work/b" --report-dir "$work/out" >"$work/log6" 2>"$work/err6"
  rc=$?
  "$check" --suite ci --name "$n.stale_taken_over" \
    --expect-equal "lock left; exit 0; buildgate: ci/gate: build tree $work/b: taking over the lock of a run that is gone (pid $killed: $cmdline)" \
    "lock $left; exit $rc; $(head -1 "$work/err6")" || ok=1
  ;;
coverage)
  mkdir -p "$work/b/host" || exit 3
  printf '#!/bin/sh\nexec "%s" "$@"\n' "$check" >"$work/b/lib/bg-check" && chmod +x "$work/b/lib/bg-check" || exit 3
  {
    printf '#!/bin/sh\ncat <<"EOF"\n'
    printf '# name\tguest\tstatus\ttraits\tknown\tversion-or-reason\n'
    printf 'native\thost\tok\t-\tnative.tsv\tLinux 6.1\n'
    printf "qemu-x86_64\tx86_64\tunavailable\t-\tqemu-x86_64.tsv\trunner 'qemu-x86_64' is not installed: 'qemu-x86_64' not found in PATH (install it: ci/provision)\n"
    printf "valgrind\tx86_64\tunavailable\tserial\tvalgrind.tsv\trunner 'valgrind' is not installed: 'valgrind' not found in PATH (install it: ci/provision)\n"
    printf "rosetta\tx86_64\tunavailable\t-\trosetta.tsv\trunner 'rosetta' exists only on macOS (arm64 with Rosetta 2)\n"
    printf 'EOF\n'
  } >"$work/b/host/bg-runner" && chmod +x "$work/b/host/bg-runner" || exit 3
  want="not checked: qemu-x86_64, valgrind (not installed → ci/provision); rosetta (exists only on macOS (arm64 with Rosetta 2))"
  env -u CI -u BG_REQUIRE_RUNNERS "$gate" --no-provision --label nan --build-dir "$work/b" --report-dir "$work/out" >"$work/log" 2>"$work/err"
  rc=$?
  "$check" --suite ci --name "$n.local_passes" --expect-equal "exit 0" "exit $rc$(head -c 300 "$work/err")" || ok=1
  # report.md as rendered: Markdown's escapes (qemu-x86\_64) taken out
  sed 's/\\\([_*<>|#~&]\)/\1/g' "$work/out/report.md" >"$work/report.txt"
  "$check" --suite ci --name "$n.report_md_top" --expect-equal "in report.md's first 10 lines" \
    "$(head -n 10 "$work/report.txt" | grep -qF "$want" && echo "in report.md's first 10 lines" || head -n 10 "$work/report.txt")" || ok=1
  "$check" --suite ci --name "$n.suite_share" --expect-equal "Ran: ci 1 of 1 check ran" \
    "$(head -n 10 "$work/report.txt" | grep -o 'Ran: [^.]*')" || ok=1
  "$check" --suite ci --name "$n.report_html" --expect-equal "in report.html's header" \
    "$(sed -n '/<header/,/<\/header>/p' "$work/out/report.html" | grep -qF "$want" && echo "in report.html's header" || echo "not in report.html's header")" || ok=1
  "$check" --suite ci --name "$n.console" --expect-equal "in the console's last 3 lines" \
    "$(tail -n 3 "$work/log" | grep -qF "$want" && echo "in the console's last 3 lines" || tail -n 3 "$work/log")" || ok=1
  BG_REQUIRE_RUNNERS="native,qemu-x86_64 valgrind" "$gate" --no-provision --label nan --build-dir "$work/b" --report-dir "$work/out" >"$work/log2" 2>"$work/err2"
  rc=$?
  "$check" --suite ci --name "$n.required_fails" \
    --expect-equal "exit 1; buildgate: ci/gate: declared runners did not run: qemu-x86_64 (not installed → ci/provision), valgrind (not installed → ci/provision) (--require-runners / BG_REQUIRE_RUNNERS); # buildgate report: FAIL ❌" \
    "exit $rc; $(grep '^buildgate:' "$work/err2" | tail -n 1); $(head -n 1 "$work/out/report.md")" || ok=1
  # refused before any step, and the previous run's report is left as it was
  known=$(bash -c 'source "$1/common.sh" && bg_runner_names "$2"' - "$(dirname "$gate")" "$work/b" | paste -sd' ' -)
  "$gate" --no-provision --label nan --require-runners native,bogus --build-dir "$work/b" --report-dir "$work/out" >"$work/log3" 2>"$work/err3"
  rc=$?
  "$check" --suite ci --name "$n.unknown_runner" \
    --expect-equal "exit 2; buildgate: ci/gate: --require-runners: unknown runner 'bogus' (known: $known; lib/include/buildgate/bg_runners.def, BG_X86_RUNNERS); 0 build steps; # buildgate report: FAIL ❌" \
    "exit $rc; $(cat "$work/err3"); $(grep -c '^== \[' "$work/log3") build steps; $(head -n 1 "$work/out/report.md")" || ok=1
  ;;
*) echo "buildgate: gate-flow.sh: unknown case '$case_' (report_dir, interrupt, configure_fail, build_fail, lock, coverage)" >&2; exit 2 ;;
esac
exit $ok
