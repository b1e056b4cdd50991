#!/usr/bin/env bash
# resample_test.sh CASE BINDIR SRCDIR — self-tests of perf-aa-resample, the
# suite false-alarm study (label selftest; docs/performance.md "Suite
# false-alarm rate").  Pools are made from one real perf-bench run per
# benchmark: every process of a pool holds the same samples times its own
# factor 1 + 0.0005 i (i = 0 .. 15), so the processes differ by at most
# 0.75 %, less than any band: an A/A draw can never fail, and a head scaled
# by 1.5 is beyond every band with all head processes above all base ones.
#   shift     a planted 1.5x on aes only (--scale-only, reruns on): every draw
#             must fail aes and so the suite, and synth must never fail
#   aa        the same pools without the shift: no draw may fail
#   too_small a pool of 4 processes for K = 6: refused with one clear line
# The duet judge (--paired) on the stored pool fixtures/perf_budgets/duet-pool
# (12 pairs whose two processes share a load factor of 0.90..1.25, the head
# within +-0.33 % of its base: its make.sh):
#   duet_shift    a planted 3 % on the head of each pair, 10 pairs per draw:
#                 every draw fails (the per-pair ratios all lie near 1.03)
#   duet_aa       the same pairs unshifted: no draw fails
#   duet_unpaired the same 3 % judged unpaired (6 vs 6 processes): lost in the
#                 between-process spread (1/40 fails, median width 0.31): the
#                 pairing, not the pool, catches it in duet_shift
#   duet_no_twin  a base file without its head twin: refused with one line
set -euo pipefail
case_=$1 bin=$2 src=$3
w="$bin/selftest-resample_$case_"; rm -rf "$w"; mkdir -p "$w"
expect="$bin/../../lib/bg-expect" name="perf.selftest.resample_$case_"
# pool DIR FILTER N: N processes from one real run of the benchmarks FILTER selects.
pool() {
  mkdir -p "$1"
  "$bin/perf-bench" --benchmark_filter="$2" --benchmark_repetitions=5 --benchmark_min_time=0.01 \
    --benchmark_out="$1/run.json" >/dev/null
  for i in $(seq 0 $(($3 - 1))); do
    awk -v f="$(awk -v i="$i" 'BEGIN { print 1 + 0.0005 * i }')" '/"(real|cpu)_time":/ {
      match($0, /[-0-9.e+]+,?$/); v = substr($0, RSTART); c = (v ~ /,$/); sub(/,$/, "", v);
      $0 = substr($0, 1, RSTART - 1) sprintf("%.6f", v * f) (c ? "," : "") } { print }' "$1/run.json" \
      >"$1/$([ $((i % 2)) = 0 ] && echo base || echo head)-$(printf %03d "$i").json"
  done
  rm "$1/run.json"
}
duetpool="$src/../../fixtures/perf_budgets/duet-pool"
duet=("$bin/perf-aa-resample" --dir "$duetpool" --draws 40 --budgets "$src/budgets.json")
run=("$bin/perf-aa-resample" --dir "$w/synth" --dir "$w/aes" --k 6 --draws 40 --budgets "$src/budgets.json")
case "$case_" in
  shift)
    pool "$w/synth" '^synth/chain$' 16; pool "$w/aes" '^aes/rounds/real_time/threads:1$' 16
    exec "$expect" --name "$name" --exit 0 --contains "suite draws with any fail: 40/40" \
      --contains "aes/rounds/real_time/threads:1: fail 40/40" --contains "synth/chain: fail 0/40" -- \
      "${run[@]}" --head-scale 1.5 --scale-only '^aes/' --reruns 1 ;;
  aa)
    pool "$w/synth" '^synth/chain$' 16; pool "$w/aes" '^aes/rounds/real_time/threads:1$' 16
    exec "$expect" --name "$name" --exit 0 --contains "suite draws with any fail: 0/40" \
      --contains "suite fail rate: 0/40 = 0.00 % [0.00 %, 8.81 %]" -- "${run[@]}" --reruns 1 ;;
  too_small)
    pool "$w/synth" '^synth/chain$' 4
    exec "$expect" --name "$name" --exit 2 \
      --stderr "buildgate: perf-aa-resample: $w/synth holds 4 processes, fewer than 2K = 12" -- \
      "$bin/perf-aa-resample" --dir "$w/synth" --k 6 --draws 1 --budgets "$src/budgets.json" ;;
  duet_shift)
    exec "$expect" --name "$name" --exit 0 --contains "judged paired" --contains "synth/chain: fail 40/40" -- \
      "${duet[@]}" --paired --k 10 --head-scale 1.03 ;;
  duet_aa)
    exec "$expect" --name "$name" --exit 0 --contains "judged paired" --contains "suite draws with any fail: 0/40" -- \
      "${duet[@]}" --paired --k 10 ;;
  duet_unpaired)
    exec "$expect" --name "$name" --exit 0 --contains "synth/chain: fail 1/40" \
      --contains "median interval width 0.3" -- "${duet[@]}" --k 6 --head-scale 1.03 ;;
  duet_no_twin)
    cp "$duetpool"/*-0.json "$w/" && rm "$w/head-004-0.json"
    exec "$expect" --name "$name" --exit 2 --stderr "buildgate: perf-aa-resample: --paired: $w: base-004-0.json \
has no head twin (head-004-0.json)" -- "$bin/perf-aa-resample" --dir "$w" --paired --k 2 --draws 1 ;;
  *) echo "buildgate: resample_test.sh: unknown case '$case_'" >&2; exit 2 ;;
esac
