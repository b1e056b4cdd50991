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
  *) echo "buildgate: resample_test.sh: unknown case '$case_'" >&2; exit 2 ;;
esac
