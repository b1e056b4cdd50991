#!/usr/bin/env bash
# import_bad_input.sh TOOL GOOD WORK BG_CHECK — tools/litmus-import on bad
# input says one line "buildgate: litmus-import: <file>: <why>" per bad input
# and exits non-zero, never awk's or mv's own messages (fresh-user trial,
# issue 23's area: main printed "awk: read error (Is a directory)" and
# "awk: cannot open ... for output", exit 2, and moved its output into an
# --out-def that was a directory with exit 0).  GOOD: one valid .litmus file.
# Records one check (bg-check): every case's expected vs observed.
# Exit: 0 pass, 1 fail (as recorded), 2 usage.
set -u
[ $# -eq 4 ] || { echo "usage: import_bad_input.sh TOOL GOOD WORK BG_CHECK" >&2; exit 2; }
tool=$1 good=$2 work=$3 bgcheck=$4
rm -rf "$work" && mkdir -p "$work/dir" "$work/outdir" || exit 2
: >"$work/empty.litmus"
printf 'X86 T\000\n' >"$work/nul.litmus"
exp="" obs="" ok=1
# case NAME WANT_EXIT WANT_LINES(one per line, the text after "buildgate: litmus-import: ") ARGS...
case_() {
  name=$1 want_rc=$2 want=$3; shift 3
  "$tool" "$@" 2>"$work/$name.err" >/dev/null
  rc=$?
  got=$(sed 's/^buildgate: litmus-import: //' "$work/$name.err")
  exp="$exp $name: exit $want_rc, lines [$want];"
  obs="$obs $name: exit $rc, lines [$got];"
  [ "$rc" = "$want_rc" ] && [ "$got" = "$want" ] || ok=0
}
o="--out-def $work/d --out-verdicts $work/v"
# shellcheck disable=SC2086 # $o: two options, words on purpose
case_ directory 3 "$work/dir: is a directory (give the kinds.txt and .litmus files in it)" $o "$work/dir"
# shellcheck disable=SC2086
case_ three-bad 3 "$work/none.litmus: no such file
$work/empty.litmus: empty file (a test starts with \"X86 <name>\"; a kinds file has \"<name> Forbid|Allow\" lines)
$work/nul.litmus: contains NUL bytes (not a text file)" $o "$work/none.litmus" "$good" "$work/empty.litmus" "$work/nul.litmus"
case_ out-missing-dir 3 "$work/no/d: no directory '$work/no' to write it in" \
  --out-def "$work/no/d" --out-verdicts "$work/v" "$good"
case_ out-is-dir 2 "$work/outdir: is a directory (--out-def / --out-verdicts name a file)" \
  --out-def "$work/outdir" --out-verdicts "$work/v" "$good"
[ -z "$(ls "$work/outdir")" ] || { ok=0; obs="$obs out-is-dir: wrote into the directory;"; }
# an output over an input (the input would be lost): refused, the input intact
cp "$good" "$work/in.litmus" || exit 2
case_ out-is-input 2 "$work/in.litmus: is also an input (choose another output file)" \
  --out-def "$work/in.litmus" --out-verdicts "$work/v" "$work/in.litmus"
cmp -s "$good" "$work/in.litmus" || { ok=0; obs="$obs out-is-input: the input was overwritten;"; }
# text after the exists clause is refused naming its line (main ignored it);
# a (* comment *) or a blank line there is fine
{ cat "$good"; printf '\n(* a comment *)\n'; } >"$work/T.litmus" || exit 2
# shellcheck disable=SC2086
case_ trailing-comment 0 "" $o "$work/T.litmus"
printf 'exists (x=1)\n' >>"$work/T.litmus" || exit 2
junk_line=$(wc -l <"$work/T.litmus" | tr -d ' ')
# shellcheck disable=SC2086
case_ trailing-junk 4 "$work/T.litmus: line $junk_line: \"exists (x=1)\" after the exists clause (only blank lines and (* comments *) may follow it)" $o "$work/T.litmus"
# the good file converts (the checks above refuse nothing valid)
# shellcheck disable=SC2086
case_ good 0 "" $o "$good"
verdict=fail
[ "$ok" = 1 ] && verdict=pass
"$bgcheck" --suite memory_order --name "${BG_TEST_NAME:-memory_order.selftest.import_bad_input}" \
  --verdict "$verdict" --expected "${exp# }" --observed "${obs# }"
[ "$verdict" = pass ]
