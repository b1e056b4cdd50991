#!/bin/sh
# variant_table_test.sh — the perf suite's variant table (bg-perf variants,
# docs/perf_budgets.md "The variant table") in report.md and report.html, beside
# the digest suite's build variants, with the variant's properties as columns
# and upstream's v2 figure in the caption; and in bg-report --merge, one row per
# version/variant and a column per host ("not run on this host" where a host
# lacks the row).  A generated checks dir: three rows (a loss, an undecided
# row, a gated loss that failed) and one digest check.
#
# Usage: variant_table_test.sh BG_CHECK BG_REPORT WORK_DIR
# Records one check variant_table.report (suite lib).
# Exit: 0 pass, 1 fail, 2 usage, 3 I/O.
set -u
[ $# -eq 3 ] || { echo "buildgate: variant_table_test.sh: want BG_CHECK BG_REPORT WORK_DIR" >&2; exit 2; }
check=$1 report=$2 work=$3
rm -rf "$work" && mkdir -p "$work/checks" "$work/hosts/a" "$work/hosts/b" || exit 3
# row VERSION VARIANT VERDICT TABLE_VERDICT RATIO LO HI [GATE]: one variant-table check
row() {
    gate=""; [ $# -ge 8 ] && gate=",\"gate\":\"$8\""
    printf '{"suite":"perf_budgets","name":"perf.variants.table.%s.%s","test":"perf.variants.table","verdict":"%s","expected":"H/s","observed":"%s","details":{"variant_table":{"version":"%s","variant":"%s","reference":"%s/release","properties":{"RandomX ARCH":"native","build type":"Release","flags":"-O0"},"verdict":"%s","ratio":%s,"lo":%s,"hi":%s,"level":0.9,"pairs":5,"margin":0.02,"alpha":0.05%s}}}\n' \
        "$1" "$2" "$3" "$4" "$1" "$2" "$1" "$4" "$5" "$6" "$7" "$gate" >>"$work/checks/perf.variants.table.jsonl"
}
row v1 debug pass loss 0.5000 0.4900 0.5100
row v2 native inconclusive undecided 1.0100 0.9700 1.0500
row v2 lto fail loss 0.9000 0.8800 0.9200 '*/lto'
printf '{"suite":"digest_agreement","name":"digest.build.native.chain","test":"digest.build.native","verdict":"pass","expected":"x","observed":"x","details":{"matrix":{"table":"Build variants","row":"native","col":"chain","cell":"26.7 H/s"}}}\n' \
    >"$work/checks/digest.build.native.jsonl"
"$report" --checks-dir "$work/checks" --out-dir "$work/out" >"$work/stdout" 2>"$work/stderr"
rc=$?
md=$work/out/report.md html=$work/out/report.html
at() { grep -n -F -- "$1" "$2" | head -n 1 | cut -d: -f1 | grep . || echo 0; }
digest=$(at '### digest_agreement' "$md")
table=$(at '**RandomX build variants: light-mode JIT H/s against the shipped build**' "$md")
place="table missing"
[ "$table" -gt 0 ] && place="table under digest_agreement"
if [ "$table" -gt 0 ] && { [ "$digest" -eq 0 ] || [ "$table" -lt "$digest" ]; }; then
    place="table not under digest_agreement (lines $digest, $table)"
fi
cols=$(grep -c -F '| version | variant | against | RandomX ARCH | build type | flags | H/s ratio [interval] verdict | pairs | check |' "$md")
# shellcheck disable=SC2016 # backticks are Markdown here
r1=$(grep -c -F '| v1 | `debug` | v1/release | native | Release | -O0 | 0.5000 \[0.4900, 0.5100\] loss | 5 |' "$md")
r3=$(grep -c -F '0.9000 \[0.8800, 0.9200\] loss (gated: FAIL)' "$md")
up=$(grep -c -F '98.55 %' "$md")
hv=$(grep -c -F 'id="variant-table"' "$html")
# the merge: host a has every row, host b lacks v2/lto
cp "$work/out/results.json" "$work/hosts/a/results.json" || exit 3
grep -v '"v2","variant":"lto"' "$work/checks/perf.variants.table.jsonl" >"$work/b.jsonl"
mkdir -p "$work/checks-b" && cp "$work/b.jsonl" "$work/checks-b/perf.variants.table.jsonl" &&
    "$report" --checks-dir "$work/checks-b" --out-dir "$work/out-b" >/dev/null 2>&1
cp "$work/out-b/results.json" "$work/hosts/b/results.json" || exit 3
"$report" --merge "$work/hosts" --out-dir "$work/merged" >/dev/null 2>&1
mm=$work/merged/report.md
mh=$(grep -c -F '## RandomX build variants against the shipped build, per host' "$mm")
# shellcheck disable=SC2016 # backticks are Markdown here
mrow=$(grep -c -F '| `v2/lto` | 0.9000 [0.8800, 0.9200] loss (gated: FAIL) | — (not run on this host) |' "$mm")
expected="exit 1; table under digest_agreement; columns 1; loss row 1; gated row 1; upstream figure 1; html table 1; merge: section 1, v2/lto row 1"
observed="exit $rc; $place; columns $cols; loss row $r1; gated row $r3; upstream figure $up; html table $hv; merge: section $mh, v2/lto row $mrow"
"$check" --suite lib --name variant_table.report --expect-equal "$expected" "$observed"
