# ci/common.sh — shared by ci/gate and ci/test (sourced, not run).
# shellcheck shell=bash
# Step headers with elapsed time, and configure+build of one build tree.

# BG_ROOT, BG_TOOL (the script's name in its error lines, "buildgate: ci/gate:
# ...": ci/<name>, as the user types it), bg_die and bg_need_value: one place
# for every shell script (lib/sh/bg_cli.sh).
BG_TOOL_OUTSIDE="ci/$(basename "$0")"
# shellcheck source=lib/sh/bg_cli.sh
source "$(dirname "${BASH_SOURCE[0]}")/../lib/sh/bg_cli.sh"
BG_T0=$(date +%s)
# BG_CMDLINE: how this script was called (its name and arguments), for the
# one-line refusal another run gets from bg_lock_tree.
BG_CMDLINE="$BG_TOOL${*:+ $*}"
# BG_JOBS: parallel build and test jobs (default: the CPU count).
BG_JOBS=${BG_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || sysctl -n hw.ncpu 2>/dev/null || echo 2)}
case "$BG_JOBS" in
  ''|*[!0-9]*|0) echo "buildgate: $BG_TOOL: BG_JOBS: '$BG_JOBS' is not a positive whole number of jobs" >&2; exit 2 ;;
esac

# step "<n>/<total>" "<what>": prints a header with the elapsed wall time.
step() {
  local now; now=$(date +%s)
  printf '\n== [%s] %s  (elapsed %ds)\n' "$1" "$2" $((now - BG_T0))
}

# bg_log_cause <log>: the first error line of a configure or build log, for the
# one-line message.  CMake's status lines ("-- buildgate: runners: ...") are never
# the cause: the text of the first "CMake Error" (on its line, else the next
# non-blank one), else a buildgate error line (at the start of a line), else the
# first compiler "error:" line, else ninja's first "FAILED:" line.
bg_log_cause() {
  local why
  why=$(awk '/CMake Error/ { e = 1; t = $0; sub(/.*CMake Error( at [^:]*(:[0-9]+)?( \([^)]*\))?)?:? */, "", t)
                             if (t != "") { print t; exit } next }
             e && NF { sub(/^[ \t]+/, ""); print; exit }' "$1" 2>/dev/null)
  [ -n "$why" ] || why=$(grep -m 1 -E '^buildgate: ' "$1" 2>/dev/null)
  [ -n "$why" ] || why=$(grep -m 1 -E 'error:' "$1" 2>/dev/null | sed 's/^ *//')
  [ -n "$why" ] || why=$(grep -m 1 -E '^FAILED:' "$1" 2>/dev/null)
  printf '%s' "${why:-see the log}"
}

# bg_failed_log <build-dir>: the log of bg_configure_build's failed step:
# <build-dir>/build.log when the build failed, else <build-dir>/configure.log.
bg_failed_log() {
  if [ -f "$1/build.log" ]; then echo "$1/build.log"; else echo "$1/configure.log"; fi
}

# bg_configure_build <build-dir> [cmake -D args...]: configure with Ninja and build.
# The configure log goes inside the build tree (<build-dir>/configure.log), never
# beside it; its path is printed.  The build's output is shown and kept in
# <build-dir>/build.log (there only when the build step ran).
bg_configure_build() {
  local dir=$1; shift
  mkdir -p "$dir" || { echo "buildgate: $BG_TOOL: configure: cannot create the build tree $dir" >&2; return 3; }
  local log="$dir/configure.log" blog="$dir/build.log"
  rm -f "$blog"
  cmake -S "$BG_ROOT" -B "$dir" -G Ninja "$@" >"$log" 2>&1 || {
    cat "$log" >&2
    echo "buildgate: $BG_TOOL: configure: cmake failed: $(bg_log_cause "$log") (log above, also in $log)" >&2
    return 3
  }
  grep -E '^-- buildgate' "$log" || true
  echo "configure log: $log"
  cmake --build "$dir" -j "$BG_JOBS" 2>&1 | tee "$blog"
  [ "${PIPESTATUS[0]}" = 0 ] || {
    echo "buildgate: $BG_TOOL: build: the build failed: $(bg_log_cause "$blog") (output above, also in $blog)" >&2
    return 3
  }
}

# bg_results_why <file>: why FILE is not a results.json (one phrase, status 1),
# or nothing (status 0): its .checks must be an array of objects with a string
# name and verdict (docs/results.schema.json).  Needs jq.
bg_results_why() {
  if [ -d "$1" ]; then echo "is a directory, not a results.json"; return 1; fi
  [ -r "$1" ] || { echo "cannot be read"; return 1; }
  # slurped: an empty file is [] (jq -e alone passes it), two documents are refused
  jq -se 'length == 1 and (.[0].checks | type == "array" and all(.[]; type == "object"
          and (.name | type) == "string" and (.verdict | type) == "string"))' "$1" >/dev/null 2>&1 ||
    { echo "not a results.json (its .checks must be an array of checks with a string name and verdict; docs/results.schema.json)"; return 1; }
}

# bg_run_step CMD...: CMD in its own process group (set -m), so that a signal to
# the script reaches all of it (bg_stop_step); returns CMD's status.
BG_STEP_PID=""
bg_run_step() {
  set -m
  "$@" </dev/null &
  BG_STEP_PID=$!
  set +m
  wait "$BG_STEP_PID"
  local rc=$?
  BG_STEP_PID=""
  return $rc
}

# bg_stop_step SIG: from a signal trap, SIG to the running step's process group
# (cmake, ctest and whatever they started), then waits for it to end.
bg_stop_step() {
  if [ -n "$BG_STEP_PID" ]; then kill "-$1" -- "-$BG_STEP_PID" 2>/dev/null; wait "$BG_STEP_PID" 2>/dev/null; fi
}

# bg_skip_reasons <build-dir> <ctest-log or junit.xml>: after ctest, why each
# test that did not run was skipped.  CTest's own closing list ("The following
# tests did not run: … (Skipped)"; in its --output-junit file the testcases
# with status="notrun") names them without a reason; the reason is in the test's
# checks, <build-dir>/checks/<test>.jsonl (the observed text of its skip
# checks).  A test CTest did not run because a fixture setup test failed
# ("Failed test dependencies: <setup>" before its Not Run line in the log, in
# its <system-out> in the junit file) has no checks: its reason is
# "not run: <setup> failed" (one cause; the setup test's failure is the one).
# One line per test "  <test>: <reason>", or, for a reason that several tests
# share, one line "  <reason> — N tests: <test>, <test>, …".
bg_skip_reasons() {
  local checks=$1/checks log=$2
  awk 'function flush() { if (pt != "") print pt "\t" pst "\t" pdep; pt = "" }
       /Failed test dependencies: / {
         d = $0; sub(/.*Failed test dependencies: /, "", d); sub(/<\/system-out>.*/, "", d)
         sub(/[[:space:]]+$/, "", d); if (pt != "") pdep = d; else lastdep = d; next }
       /Test +#[0-9]+: .*Not Run/ {
         t = $0; sub(/.*Test +#[0-9]+: /, "", t); sub(/ .*/, "", t)
         if (lastdep != "") dep[t] = lastdep; lastdep = ""; next }
       /^[[:space:]]*[0-9]+ - .* \((Skipped|Not Run|Disabled)\)$/ {
         sub(/^[[:space:]]*[0-9]+ - /, ""); st = $0; sub(/.* \(/, "", st); sub(/\)$/, "", st)
         sub(/ \([^(]*\)$/, ""); print $0 "\t" st "\t" dep[$0] }
       /<testcase / { flush() }
       /<testcase name="[^"]*" .*status="(notrun|disabled)"/ {
         pt = $0; sub(/.*<testcase name="/, "", pt); sub(/".*/, "", pt)
         pst = $0; sub(/.*status="/, "", pst); sub(/".*/, "", pst); pdep = "" }
       /<\/testcase>/ { flush() }
       END { flush() }' "$log" 2>/dev/null |
  while IFS=$'\t' read -r t status dep; do
    local why=""
    [ -n "$dep" ] && why="not run: $dep failed"
    [ -z "$why" ] && [ -f "$checks/$t.jsonl" ] && why=$(awk '
      # the JSON string starting at s[i] (after its opening quote), unescaped enough to read
      function str(s, i,   o, c) {
        o = ""
        for (; i <= length(s); i++) {
          c = substr(s, i, 1)
          if (c == "\\") { i++; c = substr(s, i, 1); if (c == "n") c = " "; o = o c; continue }
          if (c == "\"") break
          o = o c
        }
        return o
      }
      /"verdict":"skip"/ {
        p = index($0, "\"observed\":\"")
        if (p) { r = str($0, p + 12); if (!(r in seen)) { seen[r] = 1; out = out (out == "" ? "" : "; ") r } }
      }
      END { print out }' "$checks/$t.jsonl")
    printf '%s\t%s\n' "${why:-no reason recorded (CTest: $status; see $checks/$t.jsonl)}" "$t"
  done | awk -F'\t' '
    { n[$1]++; names[$1] = names[$1] (n[$1] > 1 ? ", " : "") $2; if (n[$1] == 1) order[++k] = $1; total++ }
    END {
      if (!total) exit
      printf "skipped: %d test%s, why (from each test'"'"'s checks):\n", total, total == 1 ? "" : "s"
      for (i = 1; i <= k; i++) {
        r = order[i]
        if (n[r] == 1) printf "  %s: %s\n", names[r], r
        else printf "  %s — %d tests: %s\n", r, n[r], names[r]
      }
    }'
}

# bg_lock_tree <dir> <what>: one run per tree.  Takes <dir>/.buildgate.lock (a
# directory: mkdir is atomic everywhere, macOS has no flock(1)) holding "owner":
# this shell's pid, that process's start time (ps -o lstart=, so a reused pid
# is not taken for the run) and BG_CMDLINE.  Held by a running process: one line
# "buildgate: <tool>: <what> <dir> is in use by another run (pid N: <command>)",
# exit 6 (it would overwrite that run's files).  Held by a process that is gone
# (a killed run): said in one line and taken over (one run at a time).  Released when the script
# exits (trap EXIT; an interrupted run exits through it too).
BG_LOCKS=""
bg_lock_tree() {
  local lock="$1/.buildgate.lock" tries=0 opid ostart ocmd
  while ! mkdir "$lock" 2>/dev/null; do
    tries=$((tries + 1))
    opid="" ostart="" ocmd=""
    { IFS= read -r opid; IFS= read -r ostart; IFS= read -r ocmd; } 2>/dev/null <"$lock/owner"
    if [ -z "$opid" ] && [ "$tries" -lt 20 ]; then sleep 0.1; continue; fi  # being written
    if [ -n "$opid" ] && bg_pid_is "$opid" "$ostart"; then
      echo "buildgate: $BG_TOOL: $2 $1 is in use by another run (pid $opid: $ocmd); wait for it to end or use another folder" >&2
      exit 6
    fi
    [ "$tries" -gt 50 ] && { echo "buildgate: $BG_TOOL: $2 $1: cannot take its lock $lock (remove $lock.takeover if no run holds it)" >&2; exit 3; }
    # stale: one run at a time takes it over ($lock.takeover), after reading the
    # owner again (another run may have taken it over meanwhile)
    if mkdir "$lock.takeover" 2>/dev/null; then
      if [ "$(sed -n 1p "$lock/owner" 2>/dev/null)" = "$opid" ] && ! bg_pid_is "$opid" "$ostart"; then
        rm -rf "$lock"
        echo "buildgate: $BG_TOOL: $2 $1: taking over the lock of a run that is gone (pid ${opid:-unknown}: ${ocmd:-unknown command})" >&2
      fi
      rmdir "$lock.takeover"
    else
      sleep 0.1
    fi
  done
  printf '%s\n%s\n%s\n' "$$" "$(ps -o lstart= -p $$ 2>/dev/null)" "$BG_CMDLINE" >"$lock/owner.$$" &&
    mv "$lock/owner.$$" "$lock/owner"
  BG_LOCKS="$BG_LOCKS$lock
"
  trap bg_unlock_trees EXIT
}

# bg_pid_is <pid> <start>: the process <pid> runs and started at <start> (its
# ps -o lstart=; without ps's answer, only whether the pid runs).
bg_pid_is() {
  local now
  now=$(ps -o lstart= -p "$1" 2>/dev/null)
  if [ -n "$2" ] && [ -n "$now" ]; then [ "$now" = "$2" ]; else kill -0 "$1" 2>/dev/null; fi
}

# bg_unlock_trees: removes the locks this script took (bg_lock_tree).
bg_unlock_trees() {
  local l
  while IFS= read -r l; do [ -n "$l" ] && rm -rf "$l"; done <<EOF
$BG_LOCKS
EOF
  BG_LOCKS=""
}

# bg_runner_list <build-dir>: the build's runner registry as its tests see it:
# <build-dir>/host/bg-runner --list (lines "name<TAB>guest<TAB>ok|unavailable
# <TAB>traits<TAB>known<TAB>version-or-reason", '#' comments), run with the
# BG_X86_RUNNERS and BG_RUNNER_DIR of its CMakeCache.txt (the tests are pinned
# to those).  Status 1, nothing printed, when the build has no bg-runner.
bg_runner_list() {
  local runner="$1/host/bg-runner" cache="$1/CMakeCache.txt" x86 rdir
  [ -x "$runner" ] || return 1
  x86=$(sed -n 's/^BG_X86_RUNNERS:[A-Z]*=//p' "$cache" 2>/dev/null)
  rdir=$(sed -n 's/^BG_RUNNER_DIR:[A-Z]*=//p' "$cache" 2>/dev/null)
  BG_X86_RUNNERS="$x86" BG_RUNNER_DIR="${rdir:-${BG_RUNNER_DIR:-}}" "$runner" --list 2>/dev/null
}

# bg_runner_names <build-dir>: every runner name a build could know, one per
# line, read without a build: the registry's rows (BG_RUNNER("name", ... in
# lib/include/buildgate/bg_runners.def) and the user runners of BG_X86_RUNNERS
# ("name=command args;..."), the environment's when set, else <build-dir>'s
# CMakeCache.txt's.  So a typo in a runner name is refused before provisioning.
bg_runner_names() {
  local spec
  sed -n 's/^BG_RUNNER("\([a-z0-9_-]*\)".*/\1/p' "$BG_ROOT/lib/include/buildgate/bg_runners.def"
  if [ -n "${BG_X86_RUNNERS+set}" ]; then spec=$BG_X86_RUNNERS
  else spec=$(sed -n 's/^BG_X86_RUNNERS:[A-Z]*=//p' "$1/CMakeCache.txt" 2>/dev/null); fi
  printf '%s\n' "$spec" | tr ';' '\n' | sed -n 's/^ *\([a-z0-9_-]*\) *=.*/\1/p'
}

# bg_runner_gaps: bg_runner_list's lines on stdin; prints the runners this host
# cannot run, one line "<name><TAB><cause>" each (registry order).  The cause
# is one phrase with its fix: "not installed → ci/provision", "not installed →
# install box64 yourself", else bg-runner's reason without its "runner
# '<name>'" prefix ("exists only on macOS (arm64 with Rosetta 2)").
bg_runner_gaps() {
  awk -F'\t' '!/^#/ && $3 == "unavailable" {
      why = $6
      if (why ~ /is not installed/) {
        fix = ""
        if (match(why, /\(install it: [^)]*\)/)) fix = substr(why, RSTART + 13, RLENGTH - 14)
        else if (match(why, /\(ci\/provision does not install it: [^)]*\)/)) fix = substr(why, RSTART + 35, RLENGTH - 36)
        why = "not installed" (fix != "" ? " → " fix : "")
      } else {
        sub(/^runner '\''[^'\'']*'\'':? */, "", why)
      }
      print $1 "\t" why
    }'
}

# bg_group_gaps: bg_runner_gaps lines on stdin as one phrase, each cause once:
# "valgrind, qemu-x86_64 (not installed → ci/provision); rosetta (exists only on macOS ...)"
bg_group_gaps() {
  awk -F'\t' '{ if (!($2 in n)) order[++k] = $2; n[$2]++; names[$2] = names[$2] (n[$2] > 1 ? ", " : "") $1 }
              END { for (i = 1; i <= k; i++) printf "%s%s (%s)", (i > 1 ? "; " : ""), names[order[i]], order[i] }'
}
