#!/usr/bin/env bash
# adopt-known.sh — self-tests of ci/adopt-known (CTest nan.selftest.adopt_*,
# memory_order.selftest.adopt_*): each case runs it on a copy of the fixtures
# in WORK and records one check with bg-check (pass when the refusal or the
# adoption happened exactly as it should).  The real fixtures are never written.
#
# Usage: adopt-known.sh CASE REPO_ROOT WORK BG_CHECK [NAN_CHECK]
#   (NAN_CHECK: the nan-check binary ci/adopt-known validates nan lines with)
#   no_reason    --approve "" and no --approve    -> exit 2 both, files unchanged
#   malformed    a proposed line with 6 columns (the old format) -> exit 4, one
#                line naming file:line
#   unknown      a line with an unknown rule, one with an unknown context, one
#                with the range ">=7.x", one with an unknown op -> exit 4 each,
#                one line naming file:line (nan-check's parser), unchanged
#   overlap      a proposed line overlapping a committed one -> exit 6, unchanged
#   adopt        two nan lines differing only in context -> joined into one line
#                with the provenance; a memory_order line -> a new
#                known_deviations entry, the rest of expectations.json unchanged
#   observed     proposed lines with the observed column (the run's version), the
#                same group proposed twice (main_thread and main_thread_all_modes)
#                -> one nan line ending in 99.1.0, an entry with "observed"
#   mo_overlap   a memory_order line overlapping an adopted entry -> exit 6
#   unknown_runner a list named after no runner -> exit 4, the known runners
#                listed once each (qemu-x86_64 and valgrind were listed twice)
#   user_runner  a list for a BG_X86_RUNNERS runner (myqemu) without a known list:
#                adopted, its known list created with the header (it was "unknown
#                runner 'myqemu'", exit 4, fixable only by an empty file made by hand);
#                without the entry: exit 4 naming the one command (BG_X86_RUNNERS=...)
#   mo_no_test   a memory_order line for a litmus test the catalogue lacks -> exit 4
#   mo_zero_rate a memory_order line with rate_per_million 0 -> exit 4
#   empty        proposed files holding comments only -> exit 2, nothing to adopt
#   mo_quote     a reason holding " and \ -> adopted, expectations.json valid
#   dg_adopt     two digest lines (runner_known.h) of one version range and
#                algorithm -> one line in fixtures/randomx/known/box64.tsv
#                (created with its header), variants and checks united
#   dg_overlap   a digest line overlapping a committed one -> exit 6, unchanged
#   dg_malformed a digest line with 6 columns -> exit 4 naming file:line
set -uo pipefail
case=$1 root=$2 work=$3 bgcheck=$4
[ -n "${5:-}" ] && export BG_NAN_CHECK=$5
suite=nan_semantics
case "$case" in mo_*) suite=memory_order ;; dg_*) suite=digest_agreement ;; esac
fx=$work/fixtures prop=$work/proposed-known
rm -rf "$work" && mkdir -p "$prop/nan_semantics" "$prop/memory_order" "$prop/digest_agreement" && cp -r "$root/fixtures" "$fx"
P=$'proposed, not reviewed; observed 2026-11-30 on self-test with qemu-x86_64 version 99.1.0; ops addss; 3 cases; test t'
exp="" obs="" ok=0
snapshot() { (cd "$fx" && find . -type f -exec sha256sum {} + | sort); }
before=$(snapshot)
run() { out=$("$root/ci/adopt-known" "$@" 2>&1); rc=$?; }

case "$case" in
  no_reason)
    printf 'qemu-x86_64\t>=99.1,<99.2\tmain_thread\taddss\tdefault-nan\t-\t%s\n' "$P" >"$prop/nan_semantics/qemu-x86_64.tsv"
    run --fixtures "$fx" "$prop"; rc1=$rc out1=$out
    run --approve "" --fixtures "$fx" "$prop"; rc2=$rc
    run --approve "   " --fixtures "$fx" "$prop"; rc3=$rc
    exp="exit 2 without --approve, with an empty and a blank reason; fixtures unchanged"
    obs="exits $rc1 $rc2 $rc3; first message: $out1"
    [ "$rc1" = 2 ] && [ "$rc2" = 2 ] && [ "$rc3" = 2 ] && [ "$(snapshot)" = "$before" ] && ok=1 ;;
  malformed)
    printf 'qemu-x86_64\t>=99.1,<99.2\tmain_thread\tdefault-nan\t-\t%s\n' "$P" >"$prop/nan_semantics/qemu-x86_64.tsv"
    run --approve "self-test" --fixtures "$fx" "$prop"
    exp="exit 4, one line 'buildgate: ci/adopt-known: <file>:1: needs 7 tab-separated columns', fixtures unchanged"
    obs="exit $rc: $out"
    [ "$rc" = 4 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] &&
      [[ "$out" == "buildgate: ci/adopt-known: "*"qemu-x86_64.tsv:1: needs 7 tab-separated columns"* ]] &&
      [ "$(snapshot)" = "$before" ] && ok=1 ;;
  unknown)
    # each passes the script's own column checks; only the checker's parser knows them
    ok=1 obs=""
    for bad in $'main_thread\taddss\tdaz-fzt\tDAZ|unknown rule' $'main_threads\taddss\tdaz-ftz\tDAZ|matches no context' \
               $'main_thread\taddss,nosuchop\tdaz-ftz\tDAZ|nosuchop'; do
      printf 'qemu-x86_64\t>=99.1,<99.2\t%s\t-\t%s\n' "${bad%|*}" "$P" >"$prop/nan_semantics/qemu-x86_64.tsv"
      run --approve "self-test" --fixtures "$fx" "$prop"
      obs="$obs exit $rc: $out;"
      { [ "$rc" = 4 ] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] && [[ "$out" == "buildgate: ci/adopt-known: "*"qemu-x86_64.tsv:1: "*"${bad#*|}"* ]]; } || ok=0
    done
    exp="exit 4 and one line naming qemu-x86_64.tsv:1 and the cause for an unknown rule, an unknown context and an unknown op; fixtures unchanged"
    [ "$(snapshot)" = "$before" ] || ok=0 ;;
  overlap)
    # the committed 7.2 trap line, proposed again for a range that includes 7.2
    printf 'qemu-x86_64\t>=7.0\ttrap\tIE\ttrap-not-delivered\tIE\t%s\n' "$P" >"$prop/nan_semantics/qemu-x86_64.tsv"
    run --approve "self-test" --fixtures "$fx" "$prop"
    exp="exit 6 'would overlap', fixtures unchanged"
    obs="exit $rc: $out"
    [ "$rc" = 6 ] && [[ "$out" == *"would overlap"* ]] && [ "$(snapshot)" = "$before" ] && ok=1 ;;
  adopt)
    printf 'qemu-x86_64\t>=99.1,<99.2\tpthread\tsubss\tdefault-nan\t-\t%s\n' "$P" >"$prop/nan_semantics/qemu-x86_64.tsv"
    printf 'qemu-x86_64\t>=99.1,<99.2\tmain_thread\taddss\tdefault-nan\t-\t%s\n' "$P" >>"$prop/nan_semantics/qemu-x86_64.tsv"
    printf 'qemu-x86_64\t>=99.1,<99.2\tsc\tSB\t12\t%s\n' "$P" >"$prop/memory_order/qemu-x86_64.tsv"
    run --approve "self-test reason" --fixtures "$fx" "$prop"
    added=$(diff "$root/fixtures/nan_semantics/known/qemu-x86_64.tsv" "$fx/nan_semantics/known/qemu-x86_64.tsv" | grep -c '^>')
    joined=$(grep -c $'^qemu-x86_64\t>=99.1,<99.2\tmain_thread,pthread\taddss,subss\tdefault-nan\t-\tadopted [0-9-]* by .*: self-test reason; observed 2026-11-30 on self-test' "$fx/nan_semantics/known/qemu-x86_64.tsv")
    removed=$(diff "$root/fixtures/memory_order/expectations.json" "$fx/memory_order/expectations.json" | grep -c '^<')
    entry=$(jq -c '.known_deviations[] | select(.runner == "qemu-x86_64" and .versions == ">=99.1,<99.2" and .access == "sc") | .rate_per_million' "$fx/memory_order/expectations.json" 2>&1)
    exp="exit 0; one nan line added (contexts main_thread,pthread and ops addss,subss joined, provenance with the reason); one known_deviations entry {SB: 12}; no existing line removed or changed"
    obs="exit $rc; nan lines added $added, joined $joined; memory_order entry $entry, json lines removed/changed $removed; $out"
    [ "$rc" = 0 ] && [ "$added" = 1 ] && [ "$joined" = 1 ] && [ "$entry" = '{"SB":12}' ] && [ "$removed" -le 1 ] && ok=1 ;;
  observed)  # the measured version rides along; two tests of one run proposing the same group
    P2=${P/test t/test t_all_modes}
    printf 'qemu-x86_64\t>=99.1,<99.2\tmain_thread\taddss\tdefault-nan\t-\t%s\t99.1.0\n' "$P" "$P2" >"$prop/nan_semantics/qemu-x86_64.tsv"
    printf 'qemu-x86_64\t>=99.1,<99.2\tsc\tSB\t12\t%s\t99.1.0\n' "$P" >"$prop/memory_order/qemu-x86_64.tsv"
    run --approve "self-test reason" --fixtures "$fx" "$prop"
    line=$(grep -c $'^qemu-x86_64\t>=99.1,<99.2\tmain_thread\taddss\tdefault-nan\t-\tadopted [^\t]*\t99.1.0$' "$fx/nan_semantics/known/qemu-x86_64.tsv")
    entry=$(jq -c '.known_deviations[] | select(.runner == "qemu-x86_64" and .versions == ">=99.1,<99.2") | .observed' "$fx/memory_order/expectations.json" 2>&1)
    exp="exit 0; one nan line ending in the observed column 99.1.0 (the same group proposed by two tests adopted once); a known_deviations entry with observed [\"99.1.0\"]"
    obs="exit $rc; nan lines $line; memory_order observed $entry; $out"
    [ "$rc" = 0 ] && [ "$line" = 1 ] && [ "$entry" = '["99.1.0"]' ] && ok=1 ;;
  mo_overlap)
    printf 'qemu-x86_64\t>=99.1,<99.2\tsc\tSB\t12\t%s\n' "$P" >"$prop/memory_order/qemu-x86_64.tsv"
    run --approve "first" --fixtures "$fx" "$prop"; rc1=$rc
    mid=$(snapshot)
    printf 'qemu-x86_64\t=99.1.5\tsc\tSB\t30\t%s\n' "$P" >"$prop/memory_order/qemu-x86_64.tsv"
    run --approve "second" --fixtures "$fx" "$prop"
    exp="first adoption exit 0; an overlapping second (=99.1.5 inside >=99.1,<99.2) exit 6, unchanged"
    obs="exits $rc1 $rc: $out"
    [ "$rc1" = 0 ] && [ "$rc" = 6 ] && [[ "$out" == *"would overlap"* ]] && [ "$(snapshot)" = "$mid" ] && ok=1 ;;
  unknown_runner)  # a list for a runner that does not exist: exit 4, the known names once each
    printf 'nosuch\t>=99.1,<99.2\tmain_thread\taddss\tdefault-nan\t-\t%s\n' "$P" >"$prop/nan_semantics/nosuch.tsv"
    run --approve "self-test" --fixtures "$fx" "$prop"
    dups=$(printf '%s\n' "$out" | sed -n 's/.*(known: *\([^)]*\)).*/\1/p' | tr ' ' '\n' | sed '/^$/d' | sort | uniq -d | paste -sd' ' -)
    exp="exit 4, one line naming runner 'nosuch' and each known runner once; fixtures unchanged"
    obs="exit $rc: $out (listed twice: ${dups:-none})"
    [ "$rc" = 4 ] && [[ "$out" == *"unknown runner 'nosuch' (known: native qemu-x86_64 valgrind"* ]] &&
      [ -z "$dups" ] && [ "$(snapshot)" = "$before" ] && ok=1 ;;
  user_runner)  # a user runner's first proposals: its list created, with the header
    printf 'myqemu\t>=99.1,<99.2\tmain_thread\taddss\tdefault-nan\t-\t%s\n' "$P" >"$prop/nan_semantics/myqemu.tsv"
    BG_X86_RUNNERS='' run --approve "self-test" --fixtures "$fx" "$prop"
    hint="unknown runner 'myqemu' (known:"
    cmd="BG_X86_RUNNERS='myqemu=<command>' ci/adopt-known --approve \"<reason>\" $prop"
    refused="exit $rc, $([[ "$out" == *"$hint"* && "$out" == *"$cmd"* ]] && echo "the one command named" || echo "$out"), $([ "$(snapshot)" = "$before" ] && echo unchanged || echo changed)"
    BG_X86_RUNNERS="myqemu=qemu-x86_64" run --approve "self-test" --fixtures "$fx" "$prop"
    k=$fx/nan_semantics/known/myqemu.tsv
    exp="exit 4, the one command named, unchanged; exit 0, myqemu.tsv: header + 1 adopted line"
    obs="$refused; exit $rc, myqemu.tsv: $(head -n 1 "$k" 2>/dev/null | grep -q '^# Known deviations of myqemu' && echo "header" || echo "no header") + $(grep -c "^myqemu.*adopted .*: self-test" "$k" 2>/dev/null || echo 0) adopted line ($out)"
    [ "${obs%% (*}" = "$exp" ] && ok=1 ;;
  mo_no_test|mo_zero_rate)  # a line for a litmus test the catalogue lacks, or a rate of 0: exit 4, unchanged
    t=SB r=12; [ "$case" = mo_no_test ] && t=NOTEST; [ "$case" = mo_zero_rate ] && r=0
    printf 'qemu-aarch64\t>=99.0,<100\tsc\t%s\t%s\t%s\n' "$t" "$r" "$P" >"$prop/memory_order/qemu-aarch64.tsv"
    run --approve "self-test" --fixtures "$fx" "$prop"
    want="no litmus test \"NOTEST\" in expectations.json"; [ "$case" = mo_zero_rate ] && want='rate_per_million "0" is not a positive number'
    exp="exit 4, one line: $want; fixtures unchanged"
    obs="exit $rc: $out"
    [ "$rc" = 4 ] && [[ "$out" == *"$want"* ]] && [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] && [ "$(snapshot)" = "$before" ] && ok=1 ;;
  mo_quote)  # a reason with " and \ (JSON escapes): adopted, expectations.json still valid JSON
    printf 'qemu-aarch64\t>=99.0,<100\tsc\tSB\t12\t%s\n' "$P" >"$prop/memory_order/qemu-aarch64.tsv"
    run --approve 'the "SB" store buffer \ seen' --fixtures "$fx" "$prop"
    got=$(jq -r '.known_deviations[-1].reference' "$fx/memory_order/expectations.json" 2>&1)
    exp="exit 0; the last entry's reference ends with: the \"SB\" store buffer \\ seen"
    obs="exit $rc; $got; $out"
    [ "$rc" = 0 ] && [[ "$got" == *'the "SB" store buffer \ seen' ]] && ok=1 ;;
  empty)  # proposed files with comments only: nothing to adopt, exit 2 (it said "0 line(s) adopted", exit 0)
    printf '# nothing proposed\n' >"$prop/nan_semantics/qemu-x86_64.tsv"
    run --approve "self-test" --fixtures "$fx" "$prop"
    exp="exit 2: nothing to adopt; fixtures unchanged"
    obs="exit $rc: $out"
    [ "$rc" = 2 ] && [[ "$out" == *"nothing to adopt"* ]] && [ "$(snapshot)" = "$before" ] && ok=1 ;;
  dg_adopt|dg_overlap)  # digest proposals (suites/digest_agreement/check/runner_known.h)
    D=$'proposed, not reviewed; observed 2026-12-02 on self-test with box64 v99.1.0'
    if [ "$case" = dg_overlap ]; then
      mkdir -p "$fx/randomx/known"
      printf 'box64\t>=99.1,<99.2\trandomx-v1\t*\tchain\tself-test: committed\t99.1.0\n' >"$fx/randomx/known/box64.tsv"
      before=$(snapshot)
    fi
    printf 'box64\t>=99.1,<99.2\trandomx-v1\tinterp+soft-aes+light+argon2-ref\tkat.1a\t%s; runner box64: x differs from the native value\t99.1.0\n' "$D" >"$prop/digest_agreement/box64.tsv"
    printf 'box64\t>=99.1,<99.2\trandomx-v1\tjit+hard-aes+light+argon2-ref\tchain\t%s; runner box64: y differs from the native value\t99.1.0\n' "$D" >>"$prop/digest_agreement/box64.tsv"
    run --approve "self-test reason" --fixtures "$fx" "$prop"
    if [ "$case" = dg_overlap ]; then
      exp="exit 6 naming the committed line; fixtures unchanged"
      obs="exit $rc: $out"
      [ "$rc" = 6 ] && [[ "$out" == *"would overlap"*"box64.tsv:1"* ]] && [ "$(snapshot)" = "$before" ] && ok=1
    else
      got=$(grep -v '^#' "$fx/randomx/known/box64.tsv" 2>&1)
      want=$'box64\t>=99.1,<99.2\trandomx-v1\tinterp+soft-aes+light+argon2-ref,jit+hard-aes+light+argon2-ref\tkat.1a,chain\t'
      exp="exit 0; one line starting: ${want}adopted ... self-test reason; observed 2026-12-02 on self-test with box64 v99.1.0, ending 99.1.0; a header"
      obs="exit $rc; $got"
      [ "$rc" = 0 ] && [ "$(printf '%s\n' "$got" | wc -l | tr -d ' ')" = 1 ] && [[ "$got" == "$want"adopted*"self-test reason; observed 2026-12-02 on self-test with box64 v99.1.0"$'\t'99.1.0 ]] &&
        [ "$(grep -c '^# Known digest deviations of box64' "$fx/randomx/known/box64.tsv")" = 1 ] && ok=1
    fi ;;
  dg_malformed)
    printf 'box64\t>=99.1,<99.2\trandomx-v1\tinterp+soft-aes+light+argon2-ref\tkat.1a\tproposed, not reviewed\n' >"$prop/digest_agreement/box64.tsv"
    run --approve "self-test" --fixtures "$fx" "$prop"
    exp="exit 4, one line naming <file>:1 and the 7 columns; fixtures unchanged"
    obs="exit $rc: $out"
    [ "$rc" = 4 ] && [[ "$out" == *"box64.tsv:1: want 7 tab-separated columns"* ]] && [ "$(snapshot)" = "$before" ] && ok=1 ;;
  *) echo "buildgate: adopt-known self-test: unknown case '$case'" >&2; exit 2 ;;
esac
verdict=fail
[ "$ok" = 1 ] && verdict=pass
"$bgcheck" --suite "$suite" --name "${BG_TEST_NAME:-$suite.selftest.adopt_$case}" --verdict "$verdict" \
  --expected "$exp" --observed "$obs"
