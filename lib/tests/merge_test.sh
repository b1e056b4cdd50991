#!/bin/sh
# merge_test.sh — the tests of bg-report --merge (docs/cross-host.md
# "Self-tests"): two hosts built from one real results.json, one change
# planted in the second, and what the merge must say about it.
#
# Usage: merge_test.sh BG_CHECK BG_REPORT HOST_JSON WORK_DIR CASE
#   BG_CHECK   the bg-check tool, which records the check in $BG_CHECKS_FILE
#   BG_REPORT  the bg-report tool
#   HOST_JSON  lib/tests/data/merge/host.json: a results.json with one check
#              per line (lib/tests/data/merge/README.md), so sed can address one
#   WORK_DIR   scratch folder (emptied)
#   CASE       agree            the two hosts are copies: exit 0, no disagreement
#                               (with --expect-hosts 2)
#              disagree_digest  checkpoint 3 of the chain changed on the second
#              disagree_aes     the second host's digest.aes_flags fails: the line
#                               names the first host (it passed) vs the second,
#                               never the second host against itself
#              nan_verdict_edited  the second host's nan.native.main_thread
#                               verdict edited to fail: the first host's pass
#                               vs the second's fail, each host named once
#              disagree_nan     a qemu-x86_64 deviation group missing on the second
#              nan_fields_not_name  the same, and the second host's qemu-x86_64
#                               table under another test name (nan.qemu-x86_64.renamed)
#                               with the same details runner, context, modes: the
#                               merge matches tables by those fields, so it still
#                               names context main_thread and the group
#              nan_old_results  both hosts' nan checks without details.modes (a
#                               nan-check before 2026-12-01): exit 0, matched by the
#                               test name, and agree.nan.qemu-x86_64.* notes so
#              missing_chain    the second host's chain check lost its checkpoints
#                               (not comparable: a disagreement, never "the same")
#              malformed        the second results.json cut short: exit 4, one line
#              empty            no host folder: exit 2, one line
#              copied_host      --expect-hosts 2, the second folder a copy of the first
#                               (same host key and generation time): agree.hosts fails
#              native_other_version  the second host's native runner at another kernel
#                               (runner_version): each host's agree.nan.native check names
#                               the other host and its version, never "no other host ran
#                               native" (it said so although both ran native)
#              missing_host     --expect-hosts 2, the second host's folder holds
#                               only an INCOMPLETE report.md: exit 1, agree.hosts
#                               names it (one host alone never "agrees")
#              no_checks        the second host's results.json has "checks": []
#                               (its gate ran nothing), no --expect-hosts: exit 1,
#                               agree.hosts names it (it was counted as agreeing)
# Records one check merge.<CASE> (suite lib), expected vs observed.
# Exit: 0 pass, 1 the check failed, 2 usage, 3 I/O.
set -u
[ $# -eq 5 ] || { echo "buildgate: merge_test.sh: want BG_CHECK BG_REPORT HOST_JSON WORK_DIR CASE" >&2; exit 2; }
check=$1 report=$2 host=$3 work=$4 case=$5
# the second host sorts after the first (the reference: docs/cross-host.md)
a_name=gate-ubuntu-24.04 b_name=gate-ubuntu-24.04-arm
b_key=linux-arm64-neoverse-n2-4c
rm -rf "$work" && mkdir -p "$work/in/$a_name" "$work/in/$b_name" || exit 3
a=$work/in/$a_name/results.json b=$work/in/$b_name/results.json
cp "$host" "$a" || exit 3
# the second host: another host key (an arm64 runner), the same checks
sed 's/"host":{"key":"[^"]*"/"host":{"key":"'"$b_key"'"/' "$host" >"$b" || exit 3

# plant SED_SCRIPT: applies it to the second host's results.json
plant() {
    sed "$1" "$b" >"$b.tmp" && mv "$b.tmp" "$b" || exit 3
}

# merge [OPTION...]: runs the merge; rc, out (stdout), err (stderr) and the DISAGREE lines
merge() {
    "$report" --merge "$work/in" --out-dir "$work/out" "$@" >"$work/stdout" 2>"$work/stderr"
    rc=$?
    lines=$(grep -c '^DISAGREE ' "$work/stdout")
    first=$(grep '^DISAGREE ' "$work/stdout" | head -n 1)
}

# names: which of the two hosts the first DISAGREE line names
names() {
    n=""
    case $first in *"$a_name ("*) n="$a_name" ;; esac
    case $first in *"$b_name ("*) n="$n${n:+ and }$b_name" ;; esac
    printf '%s' "${n:-no host}"
}

# times_named HOST: how often the first DISAGREE line names "HOST (<key>)"
times_named() {
    printf '%s\n' "$first" | grep -o "$1 (" | grep -c .
}

err_lines() {
    wc -l <"$work/stderr" | tr -d ' '
}

# err_starts PREFIX: "starts 'PREFIX'" when stderr's first line does, else the line
err_starts() {
    e=$(head -n 1 "$work/stderr")
    case $e in "$1"*) printf "starts '%s'" "$1" ;; *) printf "is '%s'" "$e" ;; esac
}

# field LINE KEY: the value of "KEY" (a string without '"' or a number) in LINE
field() {
    printf '%s' "$1" | sed 's/.*"'"$2"'":"\{0,1\}\([^",]*\).*/\1/'
}

check_name() {
    printf '%s' "$first" | sed 's/^DISAGREE \([^:]*\):.*/\1/'
}

# first_chain: chain (the first digest chain check's line) and variant (its test
# without "digest.")
first_chain() {
    chain=$(grep '"name":"digest\.[^"]*\.chain"' "$host" | head -n 1)
    variant=$(field "$chain" test)
    variant=${variant#digest.}
}

b_slug=$(printf '%s' "$b_name" | tr -c 'A-Za-z0-9_\n-' '_')
case $case in
native_other_version)
    v=$(grep -o '"runner":"native","runner_version":"[^"]*"' "$host" | head -n 1 | sed 's/.*"runner_version":"//; s/"$//')
    plant "s/$v/Linux 6.8.0-arm/g"
    merge
    n_named=$(grep -o "as expected (not compared: the other hosts ran another native version: [^\"]*" "$work/out/results.json" |
              grep -c -e "$b_name ([^)]*) Linux 6.8.0-arm" -e "$a_name ([^)]*) $v")
    n_none=$(grep -c "no other host ran native" "$work/out/results.json")
    expected="exit 0; 2 native checks name the other host and its version; 0 say no other host ran native"
    observed="exit $rc; $n_named native checks name the other host and its version; $n_none say no other host ran native"
    ;;
agree)
    merge --expect-hosts 2
    expected="exit 0; 0 disagreements; report.md says PASS"
    verdict=$(head -n 1 "$work/out/report.md" 2>/dev/null | sed 's/.*: //')
    observed="exit $rc; $lines disagreements; report.md says $verdict"
    ;;
disagree_digest)
    first_chain
    k=$(field "$chain" k)
    cp3=$(printf '%s' "$chain" | sed 's/.*"checkpoints":\["[0-9a-f]*","[0-9a-f]*","\([0-9a-f]*\)".*/\1/')
    bad=00000000000000000000000000000000000000000000000000000000000000aa
    # as on a host whose chain left the fixture: checkpoint and verdict
    plant "s/$cp3/$bad/;/\"name\":\"digest\.[^\"]*\.chain\"/s/\"verdict\":\"pass\"/\"verdict\":\"fail\"/"
    merge
    at="checkpoint 3 (hash $((3 * k - 1)))"
    expected="exit 1; 1 disagreements: agree.digest.$variant.$b_slug; $a_name and $b_name; $at $cp3 | $at $bad"
    seen=$(printf '%s' "$first" | grep -o 'checkpoint [0-9]* (hash [0-9]*) [0-9a-f]*' | paste -s -d '|' - | sed 's/|/ | /')
    observed="exit $rc; $lines disagreements: $(check_name); $(names); $seen"
    ;;
disagree_aes)
    plant '/"name":"digest\.aes_flags"/s/"verdict":"pass"/"verdict":"fail"/'
    merge
    expected="exit 1; 1 disagreements: agree.aes.$b_slug; $a_name and $b_name; $b_name named 1 times; digest.aes_flags fail"
    seen=$(printf '%s' "$first" | grep -o 'digest\.aes_flags fail' | head -n 1)
    observed="exit $rc; $lines disagreements: $(check_name); $(names); $b_name named $(times_named "$b_name") times; $seen"
    ;;
nan_verdict_edited)
    plant '/"name":"nan\.native\.main_thread"/s/"verdict":"pass"/"verdict":"fail"/'
    merge
    expected="exit 1; 1 disagreements: agree.nan.native.$b_slug; $a_name and $b_name; $b_name named 1 times; $a_name pass"
    seen=$(printf '%s' "$first" | grep -o "$a_name ([^)]*): native [^,]*, context main_thread: pass" | head -n 1 | sed 's/ (.*: / /')
    observed="exit $rc; $lines disagreements: $(check_name); $(names); $b_name named $(times_named "$b_name") times; ${seen:-no $a_name pass}"
    ;;
disagree_nan | nan_fields_not_name)
    # one deviation group of qemu-x86_64 (a check named after its test plus
    # the group) on the first host only; nan_fields_not_name: the second
    # host's table also under another test name, its details unchanged
    group=$(grep '"name":"nan\.qemu-x86_64\.[a-z_]*\.[^"]*","test"' "$host" | head -n 1)
    gname=$(field "$group" name)
    context=$(field "$group" context)
    gverdict=$(field "$group" verdict)
    gtail=${gname#nan.qemu-x86_64."$context".}
    plant "/\"name\":\"$(printf '%s' "$gname" | sed 's/[.[\*^$/]/\\&/g')\"/d"
    if [ "$case" = nan_fields_not_name ]; then
        plant 's/"nan\.qemu-x86_64\.'"$context"'/"nan.qemu-x86_64.renamed/g'
    fi
    merge
    expected="exit 1; 1 disagreements: agree.nan.qemu-x86_64.$b_slug; $a_name and $b_name; context $context; deviation group $gverdict $gtail"
    seen=$(printf '%s' "$first" | grep -o "context $context" | head -n 1)
    grp=$(printf '%s' "$first" | grep -o "deviation group $gverdict $gtail" | head -n 1)
    observed="exit $rc; $lines disagreements: $(check_name); $(names); $seen; $grp"
    ;;
nan_old_results)
    sed 's/,"modes":"base"//' "$a" >"$a.tmp" && mv "$a.tmp" "$a" || exit 3
    plant 's/,"modes":"base"//'
    merge
    notes=$(grep -c "$b_name ($b_key): nan checks without details.modes (results.json from a nan-check before 2026-12-01): context read from the test name" "$work/out/results.json")
    expected="exit 0; 0 disagreements; a note that $b_name's context is read from the test name in its 2 agree.nan checks"
    observed="exit $rc; $lines disagreements; a note that $b_name's context is read from the test name in its $notes agree.nan checks"
    ;;
missing_chain)
    first_chain
    plant '/"name":"digest\.[^"]*\.chain"/s/"checkpoints":\[[^]]*\]/"checkpoints":"oops"/'
    merge
    expected="exit 1; agree.digest.$variant.$b_slug; not comparable"
    seen=$(printf '%s' "$first" | grep -o 'not comparable' | head -n 1)
    observed="exit $rc; $(check_name); ${seen:-said nothing of it}"
    ;;
malformed)
    head -c 200 "$host" >"$b"
    merge
    expected="exit 4; 1 stderr line; it starts 'buildgate: bg-report: merge: $b'"
    observed="exit $rc; $(err_lines) stderr line; it $(err_starts "buildgate: bg-report: merge: $b")"
    ;;
missing_host)
    rm -f "$b" && echo "# buildgate: INCOMPLETE" >"$work/in/$b_name/report.md" || exit 3
    merge --expect-hosts 2
    expected="exit 1; agree.hosts; without results.json: $b_name"
    seen=$(printf '%s' "$first" | grep -o "without results.json: $b_name" | head -n 1)
    observed="exit $rc; $(check_name); ${seen:-said nothing of it}"
    ;;
no_checks)
    printf '{"schema":1,"host":{"key":"%s"},"run":{},"checks":[]}\n' "$b_key" >"$b" || exit 3
    merge
    expected="exit 1; agree.hosts; no check in results.json (ran nothing): $b_name"
    seen=$(printf '%s' "$first" | grep -o "no check in results.json (ran nothing): $b_name" | head -n 1)
    observed="exit $rc; $(check_name); ${seen:-said nothing of it}"
    ;;
copied_host)
    cp "$a" "$b" || exit 3 # the same run uploaded twice stands in for no host
    merge --expect-hosts 2
    expected="exit 1; agree.hosts; copies of another host's run (same host key and time): $b_name"
    seen=$(printf '%s' "$first" | grep -o "copies of another host's run (same host key and time): $b_name" | head -n 1)
    observed="exit $rc; $(check_name); ${seen:-said nothing of it}"
    ;;
empty)
    rm -rf "$work/in" && mkdir -p "$work/in" || exit 3
    merge
    expected="exit 2; 1 stderr line; it starts 'buildgate: bg-report: merge: $work/in: no <host>/results.json in it'"
    observed="exit $rc; $(err_lines) stderr line; it $(err_starts "buildgate: bg-report: merge: $work/in: no <host>/results.json in it")"
    ;;
*)
    echo "buildgate: merge_test.sh: unknown case '$case'" >&2
    exit 2
    ;;
esac
"$check" --suite lib --name "merge.$case" --expect-equal "$expected" "$observed"
