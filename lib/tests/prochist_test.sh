#!/bin/sh
# prochist_test.sh — report.html's "Between processes" histogram
# (lib/tools/report_prochist.h): a time A/B check whose base processes form
# two separated clusters (10 at 30-31 ms, 10 at 47-48 ms per hash in ns as
# bg-perf writes cpu_time, drawn in ms; as the
# bimodal light-mode RandomX processes of docs/performance.md) and whose head
# is one cluster is drawn with base bars in exactly two separated groups of
# bins (10 + 10: the first and the last of 12 bins of 1.5 ms) and head bars in one; a check with 3
# processes a side, one whose medians hold a string and one without medians
# get no histogram and break nothing.  Generated checks dir.  A check with
# 5000 processes a side is drawn and counted whole (before: cut at 4096,
# "n=4096"): check report.prochist_many.
#
# Usage: prochist_test.sh BG_CHECK BG_REPORT WORK_DIR
# Records checks report.prochist and report.prochist_many (suite lib).  Exit: 0 pass, 1 fail, 2 usage, 3 I/O.
set -u
[ $# -eq 3 ] || { echo "buildgate: prochist_test.sh: want BG_CHECK BG_REPORT WORK_DIR" >&2; exit 2; }
check=$1 report=$2 work=$3
rm -rf "$work" && mkdir -p "$work/checks" || exit 3
# row NAME BASE_MEDIANS HEAD_MEDIANS (JSON arrays, or "" for none)
row() {
    pm=""
    [ -n "$2" ] && pm=",\"process_medians_base\":$2,\"process_medians_head\":$3"
    printf '{"suite":"perf_budgets","name":"%s","test":"perf.ab.aa_randomx_light","verdict":"inconclusive","expected":"interval inside 1 +- 0.05","observed":"ratio 1.0","details":{"metric":"cpu_time","median_base":40,"median_head":40,"ratio":1.0,"interval":[0.9,1.1],"band":0.05%s}}\n' \
        "$1" "$pm" >>"$work/checks/perf.ab.aa_randomx_light.jsonl"
}
row perf.ab.randomx/v2/release/hash/light-jit-hard \
    "[30e6,30.1e6,30.2e6,30.3e6,30.4e6,30.5e6,30.6e6,30.7e6,30.8e6,31e6,47e6,47.1e6,47.2e6,47.3e6,47.4e6,47.5e6,47.6e6,47.7e6,47.8e6,48e6]" \
    "[38e6,38.2e6,38.4e6,38.6e6,38.8e6,39e6,39.2e6,39.4e6,39.6e6,39.8e6,40e6,40.2e6]"
row perf.ab.few "[1,2,3]" "[1,2,3]"
row perf.ab.bad '[1,2,3,4,"x",6]' "[1,2,3,4,5,6]"
row perf.ab.none "" ""
"$report" --checks-dir "$work/checks" --out-dir "$work/out" >"$work/stdout" 2>"$work/stderr"
rc=$?
html=$work/out/report.html
sect=$(grep -o 'Between processes: per-process medians ([0-9]* checks*)' "$html" 2>/dev/null | head -n 1)
# the bins drawn, in order: "base:N" / "head:N" per bar title
bars=$(grep -oE '<title>(base|head): [0-9]+ process(es)? in \[[^)]*\)' "$html" 2>/dev/null |
    sed -E 's/<title>([a-z]+): ([0-9]+) process(es)? in (.*)/\1:\2@\4/; s/ //g' | tr '\n' ' ')
base_bars=$(printf '%s\n' "$bars" | tr ' ' '\n' | grep '^base:' | tr '\n' ' ')
head_sum=$(printf '%s\n' "$bars" | tr ' ' '\n' | sed -n 's/^head:\([0-9]*\)@.*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
figs=$(grep -c '<figure class="hist">' "$html" 2>/dev/null)
expected="exit 0; Between processes: per-process medians (1 check); 1 figure(s); base bars base:10@[30ms,31.5ms) base:10@[46.5ms,48ms) ; head processes 12"
observed="exit $rc; ${sect:-no section}; $figs figure(s); base bars ${base_bars:-none}; head processes $head_sum"
"$check" --suite lib --name report.prochist --expect-equal "$expected" "$observed"
r1=$?
# 5000 processes a side: every one counted
mkdir -p "$work/many" || exit 3
seq5000=$(awk 'BEGIN { for (i = 0; i < 5000; i++) printf "%s%d", (i ? "," : ""), 30000000 + i * 1000 }')
sed -e "s/\"process_medians_base\":\[[^]]*\]/\"process_medians_base\":[$seq5000]/" \
    -e "s/\"process_medians_head\":\[[^]]*\]/\"process_medians_head\":[$seq5000]/" \
    "$work/checks/perf.ab.aa_randomx_light.jsonl" | head -n 1 >"$work/many/perf.ab.aa_randomx_light.jsonl" || exit 3
"$report" --checks-dir "$work/many" --out-dir "$work/out-many" >"$work/stdout-many" 2>"$work/stderr-many"
rc=$?
ns=$(grep -oE '(base|head) n=[0-9]+' "$work/out-many/report.html" 2>/dev/null | tr '\n' ' ')
sum=$(grep -oE '<title>base: [0-9]+ process' "$work/out-many/report.html" 2>/dev/null | awk '{ s += $2 } END { print s + 0 }')
"$check" --suite lib --name report.prochist_many --expect-equal "exit 0; base n=5000 head n=5000 ; base bars hold 5000" \
    "exit $rc; $ns; base bars hold $sum"
r2=$?
[ "$r1" = 0 ] && [ "$r2" = 0 ]
