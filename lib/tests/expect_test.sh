#!/bin/sh
# expect_test.sh — the self-test driver bg-expect (lib/tools/bg_expect.c)
# passes what holds and fails each assertion that does not (the lib.unit.expect
# test).  Each case runs bg-expect with its own checks file and compares the
# verdict it recorded (or its exit status, for usage errors) with the right one.
#
# Usage: expect_test.sh BG_EXPECT BG_CHECK WORK_DIR [--selftest]
#   --selftest  run the cases against a mutant driver that records pass
#               whatever happens: at least one case must then fail (label
#               selftest: the lib.selftest.expect_always_pass test)
# Exit: 0 all cases right, 1 a case wrong, 2 usage (as bg-check).
set -u
[ $# -ge 3 ] || { echo "buildgate: expect_test.sh: want BG_EXPECT BG_CHECK WORK_DIR" >&2; exit 2; }
expect=$1 check=$2 work=$3 mode=${4:-}
mkdir -p "$work" || exit 3
if [ "$mode" = --selftest ]; then
    # the mutant: records pass, exit 0, for any arguments
    printf '#!/bin/sh\n"%s" --suite lib --name "$BG_TEST_NAME" --verdict pass >/dev/null\n' "$check" >"$work/mutant"
    chmod +x "$work/mutant"
    BG_CHECKS_FILE=$work/outer.jsonl BG_TEST_NAME=lib.selftest.expect_always_pass \
        sh "$0" "$work/mutant" "$check" "$work/inner" >/dev/null 2>&1
    rc=$?
    want="exit 1 (a case wrong)"; got="exit $rc"
    [ $rc -eq 1 ] && got="$want"
    exec "$check" --suite lib --name lib.selftest.expect_always_pass --expect-equal "$want" "$got"
fi

# case NAME WANT ARGS... : bg-expect ARGS must record WANT (pass/fail), or,
# for WANT = exitN, exit N with one stderr line and record nothing.
case_() {
    name=$1 want=$2; shift 2
    cf=$work/$name.jsonl; rm -f "$cf"
    BG_CHECKS_FILE=$cf BG_TEST_NAME=case.$name BG_SUITE=lib "$expect" "$@" >"$work/$name.out" 2>"$work/$name.err"
    rc=$?
    case $want in
      exit*) got="exit$rc"; [ "$(wc -l <"$work/$name.err")" -eq 1 ] || got="$got, stderr: $(cat "$work/$name.err")"
             [ -s "$cf" ] && got="$got, recorded a check" ;;
      *) got=$(sed -n 's/.*"verdict":"\([a-z]*\)".*/\1/p' "$cf" 2>/dev/null)
         [ -n "$got" ] || got="nothing recorded (exit $rc)" ;;
    esac
    "$check" --suite lib --name "lib.unit.expect.$name" --expect-equal "$want" "$got" >/dev/null
}
inner='printf "{\"suite\":\"x\",\"name\":\"x.t.forbidden\",\"verdict\":\"fail\",\"expected\":\"0\",\"observed\":\"3 per million\",\"details\":null}\n" >>"$BG_CHECKS_FILE"; echo "buildgate: x: 3 seen" >&2; exit 1'
echo before >"$work/kept"
case_ exit_ok            pass --exit 0 -- true
case_ exit_wrong         fail --exit 1 -- true
case_ signal_not_exit    fail --exit 0 -- sh -c 'kill -9 $$'
case_ stderr_one_line    pass --exit 2 --stderr "buildgate: x:" -- sh -c 'echo "buildgate: x: y" >&2; exit 2'
case_ stderr_two_lines   fail --exit 2 --stderr "buildgate: x:" -- sh -c 'echo "buildgate: x: y" >&2; echo more >&2; exit 2'
case_ contains_stdout    pass --exit 0 --contains "hello" -- echo hello
case_ contains_missing   fail --exit 0 --contains "absent" -- echo hello
case_ contains_inner     pass --exit 1 --contains "3 per million" -- sh -c "$inner"
case_ unchanged_kept     pass --exit 0 --unchanged "$work/kept" -- true
case_ unchanged_changed  fail --exit 0 --unchanged "$work/kept" -- sh -c "echo after >'$work/kept'"
case_ check_matches      pass --exit 1 --check .forbidden --verdict fail --observed "per million" -- sh -c "$inner"
case_ check_wrong_verdict fail --exit 1 --check .forbidden --verdict pass -- sh -c "$inner"
case_ check_wrong_text   fail --exit 1 --check .forbidden --verdict fail --observed "per billion" -- sh -c "$inner"
case_ check_missing      fail --exit 1 --check .power --verdict fail -- sh -c "$inner"
# the temporary folder goes, with what the command wrote beside the checks
# file (bg-check's .md: 687 folders were left in /tmp)
mkdir -p "$work/tmp" && rm -rf "$work/tmp/"* || exit 3
(TMPDIR=$work/tmp; export TMPDIR
 case_ temp_removed pass --exit 0 -- sh -c 'echo x >"$(dirname "$BG_CHECKS_FILE")/side.md"')
"$check" --suite lib --name lib.unit.expect.temp_folder_removed --expect-equal "0 left in TMPDIR" \
    "$(ls "$work/tmp" | wc -l | tr -d ' ') left in TMPDIR" >/dev/null
case_ usage_no_exit      exit2 -- true
case_ usage_verdict_alone exit2 --exit 0 --verdict fail -- true
case_ usage_bad_verdict  exit2 --exit 0 --check .x --verdict maybe -- true
case_ usage_no_command   exit2 --exit 0 --
case_ usage_unknown      exit2 --exit 0 --frobnicate 1 -- true
grep -q '"verdict":"fail"' "$BG_CHECKS_FILE" && exit 1
exit 0
