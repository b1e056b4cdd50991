#!/usr/bin/env bash
# bracket.sh CASE NAN_CHECK PROBE FIXTURES WORK RUNNERS NAN_MUTATE BG_RUNNER BG_CHECK — the
# self-tests of known-line brackets (nan_known.h "Brackets"; docs/nan_semantics.md
# "Runner versions"): a stand-in runner that reports a version nobody measured
# (QEMU 8.2.2 or valgrind 3.22.0, Ubuntu 24.04's) and runs a measured one (the
# trixie rows' QEMU 10.0.13 / valgrind 3.24.0, ci/provision --trixie-runners).
# The stand-in is first in PATH, so the registry's qemu-x86_64 / valgrind row
# (known list qemu-x86_64.tsv / valgrind.tsv) resolves to it; each case runs the
# context signal_raise (the operand-priority, status-flag, FMA and handler groups;
# faster than main_thread).  Cases:
#   qemu_inferred  exit 0: inferred xfails whose check says "between measured A
#       and B; not measured", one `cause:` line, no fail or xpass, and a proposed
#       line observed at the stand-in's version
#   valgrind_inferred  the same, except the one group valgrind changed between
#       3.19.0 and 3.24.0 (FMA pd/sd NaN operand priority): no bracket explains
#       it, so it fails naming its ops (exit 1)
#   qemu_planted, valgrind_planted  the same stand-in through filter-runner.sh +
#       nan-mutate copy:maxps:minps: exit 1, a fail check listing minps
#   qemu_differs  the stand-in runs the guest natively (no deviation at all):
#       exit 0, bracket notes (pass, "differs from its bracket"), no xpass
#   qemu_outside  a stand-in reporting 99.0.0 (above every measured version):
#       exit 1, fails with proposed lines, the note "outside every measured bracket"
# Records one check nan.selftest.bracket_<case> with bg-check (pass when the
# case behaves, else fail with what differed; skip without the trixie runners).
set -uo pipefail
case_=$1 nan_check=$2 probe=$3 fixtures=$4 work=$5 runners=$6 mutate=$7 bg_runner=$8 bgcheck=$9
record() { # verdict observed
  "$bgcheck" --suite nan_semantics --name "${BG_TEST_NAME:-nan.selftest.bracket_$case_}" --verdict "$1" \
    --expected "the behaviour of case $case_ (suites/nan_semantics/selftest/bracket.sh)" --observed "$2"
  case "$1" in pass) exit 0 ;; skip) exit 77 ;; *) exit 1 ;; esac
}
fail() { record fail "$*"; }
{ rm -rf "$work" && mkdir -p "$work/bin"; } || fail "cannot make $work"
tool=qemu-x86_64 row=qemu-x86_64-trixie ver=8.2.2 ctx=signal_raise
case "$case_" in valgrind_*) tool=valgrind row=valgrind-trixie ver=3.22.0 ;; esac
real=$(BG_X86_RUNNERS='' "$bg_runner" --resolve "$row" 2>/dev/null) ||
  record skip "runner $row is not fetched here (ci/provision --trixie-runners)"
cmd=$(printf '%s\n' "$real" | sed -n 's/^command: //p' | cut -d' ' -f1)
env=$(printf '%s\n' "$real" | sed -n 's/^env: //p')
case "$case_" in
  qemu_outside) ver=99.0.0 ;;
esac
if [ "$tool" = qemu-x86_64 ]; then vline="qemu-x86_64 version $ver (buildgate stand-in)"; else vline="valgrind-$ver"; fi
run="$env exec $cmd \"\$@\""
case "$case_" in
  *_planted) run="$env exec \"$runners/filter-runner.sh\" \"$mutate\" copy:maxps:minps $cmd \"\$@\"" ;;
  qemu_differs) run='exec "$@"' ;;
esac
cat >"$work/bin/$tool" <<EOS
#!/bin/sh
# stand-in: reports $ver, runs $cmd (bracket.sh $case_)
if [ "\${1:-}" = --version ]; then echo "$vline"; exit 0; fi
$run
EOS
chmod +x "$work/bin/$tool"
out=$work/out.txt
(cd "$work" && PATH="$work/bin:$PATH" BG_X86_RUNNERS='' BG_FIXTURES_DIR="$fixtures" BG_CHECKS_FILE="$work/checks.jsonl" \
  "$nan_check" --runner "$tool" --context "$ctx" --probe "$probe" --timeout 600 --name "sel.$tool.$ctx") >"$out" 2>&1
rc=$?
checks=$work/checks.jsonl
n() { grep -c -- "$1" "$2" 2>/dev/null || true; }
nx=$(n '"verdict":"xfail"' "$checks"); nf=$(n '"verdict":"fail"' "$checks"); nxp=$(n '"verdict":"xpass"' "$checks")
ncause=$(n '^cause:' "$out")
case "$case_" in
  valgrind_inferred)
    # valgrind 3.24.0 changed one group inside the bracket: FMA pd/sd NaNs are the
    # operand's (nan-operand-priority) where 3.19.0 gave the default NaN.  A run of
    # 3.24 called 3.22 shows that change, which no bracket explains: that group
    # alone fails (naming the ops), every other one is an inferred xfail.
    [ "$rc" = 1 ] || fail "exit $rc, want 1 (the FMA change of 3.24.0 is inside the bracket)"
    [ "$nxp" = 0 ] || fail "$nxp xpass checks, want none"
    grep -q '"inferred":"'"$ver"' is between measured [0-9.]* and [0-9.]*; not measured"' "$checks" ||
      fail "no xfail check saying '$ver is between measured A and B; not measured'"
    bad=$(grep '"verdict":"fail"' "$checks" | grep '"rule":' | grep -v '"rule":"nan-operand-priority"' | head -1 | cut -c1-200)
    [ -z "$bad" ] || fail "a fail other than the in-bracket FMA change: $bad"
    grep '"verdict":"fail"' "$checks" | grep '"rule":"nan-operand-priority"' | grep '"new_ops":"[^"]*vfmadd132pd' >/dev/null ||
      fail "the nan-operand-priority fail does not name vfmadd132pd"
    [ "$ncause" = 1 ] || fail "$ncause cause: lines, want 1"
    record pass "exit 1: $nx xfail (inferred), the FMA pd/sd operand-priority group fails naming its ops" ;;
  *_inferred)
    [ "$rc" = 0 ] || fail "exit $rc, want 0 (inferred xfails): $(grep -m3 -E '^(fail|xpass) ' "$out")"
    { [ "$nf" = 0 ] && [ "$nxp" = 0 ]; } || fail "$nf fail / $nxp xpass checks, want none"
    grep -q '"inferred":"'"$ver"' is between measured [0-9.]* and [0-9.]*; not measured"' "$checks" ||
      fail "no xfail check saying '$ver is between measured A and B; not measured'"
    [ "$ncause" = 1 ] || fail "$ncause cause: lines, want 1"
    grep -q "	$ver\$" "$work/proposed-known/nan_semantics/$tool.tsv" 2>/dev/null ||
      fail "no proposed line observed at $ver (the measurement to adopt)"
    record pass "exit 0, $nx xfail (inferred), $(grep -m1 '^cause:' "$out" | cut -c1-160)" ;;
  *_planted)
    [ "$rc" = 1 ] || fail "exit $rc, want 1 (the planted deviation fails)"
    grep '"verdict":"fail"' "$checks" | grep '"ops":"[^"]*minps' >/dev/null || fail "no fail check listing minps"
    record pass "exit 1, $nf fail naming minps, $nx inferred xfail" ;;
  qemu_differs)
    [ "$rc" = 0 ] || fail "exit $rc, want 0 (a bracketed line not seen is information)"
    [ "$nxp" = 0 ] || fail "$nxp xpass checks, want 0"
    grep -q 'differs from its bracket here' "$checks" || fail "no 'differs from its bracket here' check"
    record pass "exit 0, $(n 'differs from its bracket' "$checks") bracket note(s), no xpass" ;;
  qemu_outside)
    [ "$rc" = 1 ] || fail "exit $rc, want 1 (outside every bracket: fail as before)"
    grep -q 'outside every measured bracket' "$checks" || fail "no note 'outside every measured bracket'"
    [ -s "$work/proposed-known/nan_semantics/$tool.tsv" ] || fail "no proposed lines"
    record pass "exit 1, $nf fail with proposed lines" ;;
  *) echo "bracket.sh: unknown case '$case_'"; exit 2 ;;
esac
