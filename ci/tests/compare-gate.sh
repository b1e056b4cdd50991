#!/usr/bin/env bash
# compare-gate.sh — ci/compare-gate (and the ci/compare-checks it calls) on a
# throwaway git history whose ci/gate is a stand-in that writes the
# results.json stored in the commit (seconds, no build).  The real
# compare-gate, compare-checks, common.sh, bg_cli.sh are copied in.
#
# Usage: compare-gate.sh BG_CHECK CI_DIR WORK [--mutant]
#   --mutant  the copied compare-checks counts every difference as allowed
#             (exit 0 always): the verdict, gone and gate cases must fail
# Checks (suite ci), one per case, each the exit status and the line that
# must be printed:
#   rename   a listed rename + a perf timing verdict change: exit 0,
#            "renamed ..." and "statistical ..." printed
#   verdict  a check pass -> fail: exit 1, "verdict      b.one: pass -> fail"
#   gone     a check vanished: exit 1, "only before  a.one (pass)"
#   gate     the after ci/gate fails to report (exit 3): exit 3, one line
#   badref   an unknown BEFORE_REF: exit 2, one line, nothing checked out
#   foreign  a before-tree in --work that compare-gate did not make: exit 2, kept
#   bad_noisy  an invalid --noisy ERE: exit 2 before any ci/gate run
set -u
[ $# -ge 3 ] || { echo "buildgate: compare-gate.sh: want BG_CHECK CI_DIR WORK [--mutant]" >&2; exit 2; }
check=$1 cidir=$2 work=$3 mutant=${4:-}
n=${BG_TEST_NAME:-ci.selftest.compare_gate}
rm -rf "$work" && mkdir -p "$work/repo/ci" "$work/repo/lib/sh" || exit 3
work=$(cd "$work" && pwd)
repo=$work/repo
cp "$cidir/compare-gate" "$cidir/compare-checks" "$cidir/common.sh" "$repo/ci/" &&
  cp "$cidir/../lib/sh/bg_cli.sh" "$repo/lib/sh/" || exit 3
if [ "$mutant" = --mutant ]; then
  # the same cases against a compare-checks that calls everything allowed
  mkdir -p "$work/mutant" && cp "$cidir"/compare-gate "$cidir"/common.sh "$work/mutant/" || exit 3
  printf '%s\n' '#!/usr/bin/env bash' 'echo "mutant: nothing compared"; exit 0' >"$work/mutant/compare-checks"
  mkdir -p "$work/lib/sh" && cp "$cidir/../lib/sh/bg_cli.sh" "$work/lib/sh/" || exit 3
  chmod +x "$work/mutant/compare-gate" "$work/mutant/compare-checks"
  BG_CHECKS_FILE="$work/mutant.jsonl" BG_TEST_NAME=mutant "$0" "$check" "$work/mutant" "$work/run" >"$work/mutant.out" 2>&1
  fails=$(grep -c '"verdict": *"fail"' "$work/mutant.jsonl" 2>/dev/null)
  "$check" --suite ci --name "$n.mutant_caught" --expect-equal "some checks fail" \
    "$([ "${fails:-0}" -gt 0 ] && echo "some checks fail" || echo "no check fails: $(cat "$work/mutant.out")")"
  exit $?
fi
cat >"$repo/ci/gate" <<'STUB'
#!/bin/sh
# stand-in ci/gate: copies the commit's results.json to --report-dir, exits gate-exit's number
root=$(cd "$(dirname "$0")/.." && pwd) rd=""
while [ $# -gt 0 ]; do [ "$1" = --report-dir ] && rd=$2; shift; done
mkdir -p "$rd" && cp "$root/results.json" "$rd/results.json"
exit "$(cat "$root/gate-exit")"
STUB
chmod +x "$repo/ci/gate" "$repo/ci/compare-gate" "$repo/ci/compare-checks"
printf 'a.old\ta.new\n' >"$repo/ci/check-renames.tsv"
# commit <tag> <exit> <name:verdict>...: the results.json a gate run at this commit reports
commit() {
  local tag=$1 ex=$2 sep="" c; shift 2
  { printf '{"schema":"buildgate-results/1","checks":['
    for c in "$@"; do printf '%s{"name":"%s","verdict":"%s"}' "$sep" "${c%%:*}" "${c#*:}"; sep=,; done
    printf ']}\n'; } >"$repo/results.json"
  echo "$ex" >"$repo/gate-exit"
  git -C "$repo" add -A >/dev/null && git -C "$repo" commit -q -m "$tag" && git -C "$repo" tag "$tag"
}
git -C "$repo" init -q && git -C "$repo" config user.email t@t && git -C "$repo" config user.name t || exit 3
commit base    0 a.one:pass b.one:pass a.old:pass perf.ab.x:pass
commit rename  0 a.one:pass b.one:pass a.new:pass perf.ab.x:fail
commit verdict 1 a.one:pass b.one:fail a.new:pass perf.ab.x:pass
commit gone    0            b.one:pass a.new:pass perf.ab.x:pass
commit gate    3 a.one:pass b.one:pass a.new:pass perf.ab.x:pass
r=0
# case <name> <want-exit> <want-line> <args...>
case_() {
  local name=$1 want=$2 line=$3 rc got; shift 3
  (cd "$repo" && ci/compare-gate --work "$work/w-$name" "$@") >"$work/$name.out" 2>"$work/$name.err"
  rc=$?
  if grep -qhxF -- "$line" "$work/$name.out" "$work/$name.err"; then got="exit $rc: $line"
  else got="exit $rc: line not printed; stdout ends: $(tail -n 3 "$work/$name.out" | tr '\n' '|') stderr: $(tr '\n' '|' <"$work/$name.err")"
  fi
  "$check" --suite ci --name "$n.$name" --expect-equal "exit $want: $line" "$got" || r=1
}
case_ rename 0 "renamed      a.old -> a.new" base rename
grep -qxF "statistical  perf.ab.x: pass -> fail" "$work/rename.out" && got=listed || got="not listed: $(tr '\n' '|' <"$work/rename.out")"
"$check" --suite ci --name "$n.statistical" --expect-equal listed "$got" || r=1
case_ verdict 1 "verdict      b.one: pass -> fail" base verdict
case_ gone 1 "only before  a.one (pass)" base gone
case_ gate 3 "buildgate: ci/compare-gate: after: ci/gate at gate exited 3 without a results.json to compare (its output above)" base gate
case_ badref 2 "buildgate: ci/compare-gate: 'nosuch': no such commit in $repo (see ci/compare-gate --help)" nosuch
# a before-tree of the user's in --work is never removed; a bad --noisy is refused before any gate run
mkdir -p "$work/w-foreign/before-tree" && echo mine >"$work/w-foreign/before-tree/mine.txt"
case_ foreign 2 "buildgate: ci/compare-gate: --work $work/w-foreign: $work/w-foreign/before-tree exists and is not a worktree ci/compare-gate made (move it, or pick another --work) (see ci/compare-gate --help)" base rename
"$check" --suite ci --name "$n.foreign_kept" --expect-equal mine "$(cat "$work/w-foreign/before-tree/mine.txt" 2>/dev/null || echo lost)" || r=1
case_ bad_noisy 2 "buildgate: ci/compare-gate: --noisy '(': not a valid extended regular expression" --noisy '(' base rename
exit $r
