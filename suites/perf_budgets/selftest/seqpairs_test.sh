#!/usr/bin/env bash
# seqpairs_test.sh CASE BINDIR SRCDIR — self-tests of the sequential pairs of
# the duet judge (perf_paired.h, docs/perf_budgets.md "Sequential pairs"),
# through perf-aa-resample --paired --seq, which runs the same rule
# (perf_paired_seq_*) as bg-perf ab --duet on stored pairs.
# The pool: 70 pairs made here from fixtures/perf_budgets/duet-pool/template.json
# (one real synth/chain process).  Pair k: base = template x L_k (the load
# both sides saw, 1.00 .. 1.20), head = base x (1 + e_k), e_k uniform with sd
# 8 % (a low-discrepancy sequence frac(k x 0.618...), the same on every awk):
# a per-pair spread that 11 pairs cannot resolve to a few percent.
# One draw of 11 pairs (the PR judge's duet rounds; seed 1, seq_aa and seq_cap
# seed 8: a draw whose first 11 pairs straddle the band), no reruns; budgets.json
# with synth's band and the seq_* fields set per case:
#   seq_shift  a planted 6 % (head x 1.06), band 2 %, seq_max_pairs 60:
#              inconclusive with 11 pairs, DIFFERENT (fail) after added pairs
#   seq_aa     no shift, band 3 %: inconclusive with 11 pairs, SAME (pass)
#              after the added pairs
#   seq_cap    no shift, band 3 %, seq_max_pairs 14: UNKNOWN after 14 pairs,
#              saying the cap and the interval that would decide
# On main's perf-aa-resample (no --seq) each exits 2: an unknown option.
#   seq_time_first  a real bg-perf ab --duet (synth/chain A/A, 3 rounds and
#              1 rerun: 6 pairs, too few to decide), seq_time_cap 0.001 s: the
#              cap is reached before
#              the first look, so no look runs and the check says so with the
#              pairs, the seconds spent and predicted, the cap (main ran the
#              first look regardless and said "the next look would pass it")
set -euo pipefail
case_=$1 bin=$2 src=$3
w="$bin/selftest-seqpairs_$case_"; rm -rf "$w"; mkdir -p "$w/pool"
expect="$bin/../../lib/bg-expect" name="perf.selftest.$case_"
tpl="$src/../../fixtures/perf_budgets/duet-pool/template.json"
# The pool in one awk: pair k's base and head files from the template, every
# real_time and cpu_time scaled.
awk -v dir="$w/pool" 'function scaled(s, f,   out, k, v) { out = ""
    while (match(s, /"(real|cpu)_time":[-0-9.e+]+/)) {
      k = index(substr(s, RSTART, RLENGTH), ":"); v = substr(s, RSTART + k, RLENGTH - k)
      out = out substr(s, 1, RSTART + k - 1) sprintf("%.6f", v * f); s = substr(s, RSTART + RLENGTH) }
    return out s }
  { for (k = 0; k < 70; k++) {
      u = k * 0.6180339887; u -= int(u); v = k * 0.7548776662; v -= int(v); l = 1 + 0.2 * v
      n = sprintf("%03d", k)
      print scaled($0, l) >(dir "/base-" n "-0.json"); close(dir "/base-" n "-0.json")
      print scaled($0, l * (1 + 0.08 * sqrt(12) * (u - 0.5))) >(dir "/head-" n "-0.json"); close(dir "/head-" n "-0.json") } }' "$tpl"
# budgets BAND MAX_PAIRS: budgets.json with synth's band and the sequential fields.
budgets() {
  awk -v b="$1" -v m="$2" '/"synth\/": *\{"band"/ { sub(/"band": *[0-9.]+/, "\"band\": " b) }
    /"seq_max_pairs"/ { sub(/"seq_max_pairs": *[0-9]+/, "\"seq_max_pairs\": " m) }
    { print }' "$src/budgets.json" >"$w/budgets.json"
}
run=("$bin/perf-aa-resample" --paired --seq --dir "$w/pool" --k 11 --draws 1 --reruns 0 --verbose
  --budgets "$w/budgets.json")
case "$case_" in
  seq_time_first)
    # 3 rounds and 1 rerun: 6 pairs, too few for the signed-rank test to reach
    # alpha (8), so the benchmark stays undecided whatever the load does
    budgets 0.05 60
    sed 's/"seq_time_cap": *[0-9.]*/"seq_time_cap": 0.001/; s/"max_reruns": *[0-9]*/"max_reruns": 1/' \
      "$w/budgets.json" >"$w/b.json"
    exec "$expect" --name "$name" --exit 0 \
      --contains "bg-perf: sequential: no look: seq_time_cap 0.001 s reached before the first look: 0 s spent, its 18 pairs would take about" \
      --check synth/chain --verdict inconclusive \
      --observed "UNKNOWN after 6 pairs (0 sequential look(s), seq_time_cap 0.001 s reached before the first look: 0 s spent, its 18 pairs would take about" \
      -- "$bin/bg-perf" ab --duet --base-exe "$bin/perf-bench" --head-exe "$bin/perf-bench" \
      --filter '^synth/chain$' --rounds 3 --reps 2 --min-time 0.01 --work-dir "$w/ab" --budgets "$w/b.json" ;;
  seq_shift)
    budgets 0.02 60
    exec "$expect" --name "$name" --exit 0 \
      --contains "draw 1: before the sequential looks: synth/chain: inconclusive" \
      --contains "draw 1: sequential: synth/chain: DIFFERENT after 60 pairs, 3 look(s) (fail)" \
      --contains "sequential pairs: draws with looks 1/1; benchmarks looked at 1: DIFFERENT 1 (fail 1), SAME 0, UNKNOWN 0; looks 3, pairs added 49" \
      -- "${run[@]}" --head-scale 1.06 ;;
  seq_aa)
    budgets 0.03 40
    exec "$expect" --name "$name" --exit 0 \
      --contains "draw 1: before the sequential looks: synth/chain: inconclusive" \
      --contains "draw 1: sequential: synth/chain: SAME after 31 pairs, 2 look(s) (pass)" \
      --contains "suite draws with any fail: 0/1" -- "${run[@]}" --seed 8 ;;
  seq_cap)
    budgets 0.03 14
    exec "$expect" --name "$name" --exit 0 \
      --contains "draw 1: before the sequential looks: synth/chain: inconclusive" \
      --contains "draw 1: sequential: synth/chain: UNKNOWN after 14 pairs" \
      --contains "UNKNOWN after 14 pairs (3 sequential look(s), seq_max_pairs reached): interval [" \
      --contains "straddles 1 + band (1.0300); deciding needs it within +-" -- "${run[@]}" --seed 8 ;;
  *) echo "buildgate: seqpairs_test.sh: unknown case '$case_'" >&2; exit 2 ;;
esac
