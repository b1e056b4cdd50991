#!/bin/sh
# perf_table_test.sh — the perf section of report.md / report.html with
# `ci/gate --base REF`: the merge-base judgement (test perf.ab.merge_base)
# first and apart under "This change vs its merge-base", its counts the
# headline, then the A/A and callgrind self-checks under their own heading,
# and an inconclusive A/A row named "not this change" among the causes (issue
# 25: one table mixed them and the only inconclusive headlined was an A/A row).
# A generated checks dir: the A/A rows come first in file order (aa sorts
# before merge_base), as on a real run.
#
# Usage: perf_table_test.sh BG_CHECK BG_REPORT WORK_DIR
# Records one check perf_table.merge_base_first (suite lib).
# Exit: 0 pass, 1 fail, 2 usage, 3 I/O.
set -u
[ $# -eq 3 ] || { echo "buildgate: perf_table_test.sh: want BG_CHECK BG_REPORT WORK_DIR" >&2; exit 2; }
check=$1 report=$2 work=$3
rm -rf "$work" && mkdir -p "$work/checks" || exit 3
# row TEST NAME VERDICT RATIO LO HI: one perf check of test TEST
row() {
    printf '{"suite":"perf_budgets","name":"%s","test":"%s","verdict":"%s","expected":"interval not wholly above 1.05","observed":"ratio %s","details":{"metric":"cpu_time","median_base":100,"median_head":%s,"ratio":%s,"interval":[%s,%s],"band":0.05}}\n' \
        "$2" "$1" "$3" "$4" "$4" "$4" "$5" "$6" >>"$work/checks/$1.jsonl"
}
row perf.ab.aa_synth perf.ab.synth/aes inconclusive 0.99 0.95 1.10
row perf.ab.aa_synth perf.ab.synth/blake pass 1.00 0.98 1.02
row perf.callgrind.aa perf.callgrind.synth/aes pass 1.00 1.00 1.00
row perf.ab.merge_base perf.ab.randomx/hash/light pass 1.01 0.99 1.03
row perf.ab.merge_base perf.ab.randomx/hash/fast fail 1.20 1.15 1.25
"$report" --checks-dir "$work/checks" --out-dir "$work/out" --meta perf_base=0123abc \
    >"$work/stdout" 2>"$work/stderr"
rc=$?
md=$work/out/report.md html=$work/out/report.html
# line of the first match of a fixed string (0: none)
at() { grep -n -F -- "$1" "$2" | head -n 1 | cut -d: -f1 | grep . || echo 0; }
mb=$(at '### This change vs its merge-base' "$md")
aa=$(at '### A/A self-checks' "$md")
order="merge-base section missing"
if [ "$mb" -gt 0 ] && [ "$aa" -gt "$mb" ]; then
    order="merge-base first"
elif [ "$mb" -gt 0 ]; then
    order="merge-base not before the A/A section (lines $mb, $aa)"
fi
# the rows of the merge-base section: between its heading and the A/A one
mb_rows=$(sed -n "${mb},${aa}p" "$md" | grep -c '^| `')
mb_aa=$(sed -n "${mb},${aa}p" "$md" | grep -c 'A/A self-check |')
head_line=$(sed -n "${mb},${aa}p" "$md" | grep -o '\*\*2 benchmarks: [^*]*\*\*' | head -n 1)
cause=$(grep -c '^| [0-9]* | perf (A/A self-check, not this change)' "$md")
h_mb=$(at 'This change vs its merge-base (' "$html")
h_aa=$(at 'A/A self-checks and other perf checks (not this change) (' "$html")
hord="html: no merge-base table"
[ "$h_mb" -gt 0 ] && [ "$h_aa" -gt "$h_mb" ] && hord="html: merge-base table first"
expected="exit 1; merge-base first; 2 merge-base rows, 0 A/A among them; headline **2 benchmarks: 1 pass, 1 fail/xpass, 0 inconclusive**; A/A cause says not this change: 1; html: merge-base table first"
observed="exit $rc; $order; $mb_rows merge-base rows, $mb_aa A/A among them; headline ${head_line:-none}; A/A cause says not this change: $cause; $hord"
"$check" --suite lib --name perf_table.merge_base_first --expect-equal "$expected" "$observed"
