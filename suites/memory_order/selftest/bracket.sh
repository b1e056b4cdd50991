#!/usr/bin/env bash
# bracket.sh CASE LITMUS_CHECK X86_PROBE ARM64_PROBE FIXTURES WORK BG_RUNNER BG_CHECK —
# memory_order's self-tests of known-deviation brackets (docs/memory_order.md
# "Runner versions"): a stand-in runner first in PATH, so the registry's
# qemu-aarch64 / qemu-x86_64 row resolves to it, reports Ubuntu 24.04's QEMU
# 8.2.2 and runs trixie's measured QEMU 10.0.13 (ci/provision --trixie-runners).
#   aarch64_inferred  qemu-aarch64 8.2.2, SB sc: the deviation measured at 7.2.22
#       and 10.0.13 is an inferred xfail ("between measured 7.2.22 and 10.0.13;
#       not measured"), one `cause:` line, exit 0
#   aarch64_differs  the same stand-in pinned to one host CPU (taskset -c 0: the
#       guest threads never run at once, so no store buffer shows through and the
#       outcome does not happen) -> pass, "differs from its bracket", never xpass
#   x86_standin  qemu-x86_64 8.2.2, SB+mfences plain: no deviation known or seen: pass
#   x86_planted  the same with --mutant drop-fence (a planted deviation): exit 1,
#       the forbidden check fails naming the outcome of SB+mfences
# Records one check memory_order.selftest.bracket_<case> with bg-check (skip
# without the trixie runners or the arm64 probe).
set -uo pipefail
case_=$1 litmus=$2 xprobe=$3 aprobe=$4 fixtures=$5 work=$6 bg_runner=$7 bgcheck=$8
record() {
  "$bgcheck" --suite memory_order --name "${BG_TEST_NAME:-memory_order.selftest.bracket_$case_}" --verdict "$1" \
    --expected "the behaviour of case $case_ (suites/memory_order/selftest/bracket.sh)" --observed "$2"
  case "$1" in pass) exit 0 ;; skip) exit 77 ;; *) exit 1 ;; esac
}
fail() { record fail "$*"; }
{ rm -rf "$work" && mkdir -p "$work/bin"; } || fail "cannot make $work"
real=$(BG_X86_RUNNERS='' "$bg_runner" --resolve qemu-x86_64-trixie 2>/dev/null) ||
  record skip "runner qemu-x86_64-trixie is not fetched here (ci/provision --trixie-runners)"
qdir=$(dirname "$(printf '%s\n' "$real" | sed -n 's/^command: //p' | cut -d' ' -f1)")
case "$case_" in
  aarch64_*) tool=qemu-aarch64 arch=arm64 probe=$aprobe test=SB access=sc extra=""
             [ -x "$qdir/qemu-aarch64" ] || record skip "no qemu-aarch64 beside $qdir/qemu-x86_64"
             [ -x "$probe" ] || record skip "no arm64 litmus-probe ($probe)" ;;
  x86_*) tool=qemu-x86_64 arch=x86_64 probe=$xprobe test=SB+mfences access=plain extra="" ;;
  *) echo "bracket.sh: unknown case '$case_'"; exit 2 ;;
esac
[ "$case_" = x86_planted ] && extra="--mutant drop-fence"
pin=""
if [ "$case_" = aarch64_differs ]; then
  command -v taskset >/dev/null || record skip "no taskset (util-linux) to pin the stand-in to one CPU"
  pin="taskset -c 0"
fi
cat >"$work/bin/$tool" <<EOS
#!/bin/sh
# stand-in: reports 8.2.2, runs $qdir/$tool (bracket.sh $case_)
if [ "\${1:-}" = --version ]; then echo "$tool version 8.2.2 (buildgate stand-in)"; exit 0; fi
exec $pin "$qdir/$tool" "\$@"
EOS
chmod +x "$work/bin/$tool"
out=$work/out.txt checks=$work/checks.jsonl
# shellcheck disable=SC2086 # extra is an option list
(cd "$work" && PATH="$work/bin:$PATH" BG_X86_RUNNERS='' BG_FIXTURES_DIR="$fixtures" BG_CHECKS_FILE="$checks" \
  "$litmus" --test "$test" --access "$access" --runner "$tool" --arch "$arch" --probe "$probe" \
  --iterations 200000 --timeout 200 $extra) >"$out" 2>&1
rc=$?
fv=$(grep '"name":"[^"]*\.forbidden"' "$checks" 2>/dev/null | sed -n 's/.*"verdict":"\([a-z]*\)".*/\1/p' | head -1)
ncause=$(grep -c '^cause:' "$out" || true)
case "$case_" in
  aarch64_inferred)
    [ "$rc" = 0 ] || fail "exit $rc, want 0: $(grep -m1 -A2 '^fail ' "$out" | tr '\n' ' ' | cut -c1-300)"
    [ "$fv" = xfail ] || fail "forbidden check is '$fv', want xfail (inferred)"
    grep -q '"bracket":"8.2.2 is between measured 7.2.22 and 10.0.13; not measured"' "$checks" ||
      fail "no check saying '8.2.2 is between measured 7.2.22 and 10.0.13; not measured'"
    [ "$ncause" = 1 ] || fail "$ncause cause: lines, want 1"
    record pass "exit 0, forbidden xfail inferred from 7.2.22..10.0.13, one cause line" ;;
  aarch64_differs)
    [ "$fv" != xpass ] || fail "an inferred deviation not seen was an xpass"
    [ "$fv" = pass ] || fail "forbidden check is '$fv', want pass"
    grep -q 'differs from its bracket here' "$checks" || fail "no 'differs from its bracket here'"
    record pass "exit $rc, forbidden pass with 'differs from its bracket here', no xpass" ;;
  x86_standin)
    [ "$rc" = 0 ] || fail "exit $rc, want 0"
    [ "$fv" = pass ] || fail "forbidden check is '$fv', want pass"
    record pass "exit 0: qemu-x86_64 8.2.2 stand-in, SB+mfences forbidden pass" ;;
  x86_planted)
    [ "$rc" = 1 ] || fail "exit $rc, want 1 (the planted deviation)"
    [ "$fv" = fail ] || fail "forbidden check is '$fv', want fail"
    grep '"verdict":"fail"' "$checks" | grep 'SB+mfences.forbidden' >/dev/null || fail "the fail does not name SB+mfences"
    record pass "exit 1: the planted dropped fence fails memory_order...SB+mfences.forbidden" ;;
esac
