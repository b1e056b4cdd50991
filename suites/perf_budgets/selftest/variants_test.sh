#!/usr/bin/env bash
# variants_test.sh CASE BINDIR SRCDIR — self-tests of the variant table
# (bg-perf variants, gate/perf_variants.h, docs/perf_budgets.md "The variant
# table"), label selftest, through bg-expect.
#   loss, gain   live duet pairs of perf-bench's synth/chain, the knob
#                (BG_PERF_SLOWDOWN_PCT=50) on the variant's side (a planted slow
#                variant: loss) or on the reference's (a planted fast one: gain)
#   identical    stored pairs of real samples, variant = reference within
#                +-0.3 % per pair (each pair disturbed alike): no useful gain
#   undecided    the same with +-5 % per pair: undecided, an inconclusive check
#   gated        stored pairs 30 % slower, with a budgets copy whose
#                "variant_table" gates that row on loss: the check fails (exit 1);
#                without the gate the same pairs are a passing loss
#   not_built    a row whose program is missing: skip, naming it
#   bad_rows     a rows file whose header lacks a column: one line, exit 4
set -euo pipefail
case_=$1 bin=$2 src=$3
w="$bin/selftest-variants-$case_"; rm -rf "$w"; mkdir -p "$w"
perf="$bin/bg-perf" bench="$bin/perf-bench" expect="$bin/../../lib/bg-expect"
budgets="$src/budgets.json"
name="perf.selftest.variants_$case_"
# rows VARIANT EXE REFERENCE_EXE: a one-row table (one property column)
rows() {
  printf 'version\tvariant\treference\texe\treference_exe\tflags\n' >"$w/rows.tsv"
  printf 'v0\t%s\tv0/reference\t%s\t%s\t-O2\n' "$1" "$2" "$3" >>"$w/rows.tsv"
}
# stored VARIANT SHIFT J1 J2 J3: ten pairs in $w/store/v0.VARIANT from one real
# synth/chain process (its spread shrunk 20x around the first sample, as
# selftest.sh's mkproc does): pair k is disturbed alike on both sides (+4 % x k),
# the variant's side times SHIFT times (1 + J), J cycling through J1 J2 J3.
stored() {
  "$bench" --benchmark_filter='^synth/chain$' --benchmark_repetitions=3 \
    --benchmark_min_time=0.01 --benchmark_out="$w/good.json" >/dev/null
  mkdir -p "$w/store/v0.$1"
  for k in 0 1 2 3 4 5 6 7 8 9; do
    for side in base head; do
      awk -v k="$k" -v side="$side" -v s="$2" -v j1="$3" -v j2="$4" -v j3="$5" '
        BEGIN { split(j1 " " j2 " " j3, j, " "); f = 1 + 0.04 * k
                if (side == "head") f *= s * (1 + j[k % 3 + 1]) }
        /"(real|cpu)_time":/ { match($0, /[-0-9.e+]+,?$/); v = substr($0, RSTART);
          c = (v ~ /,$/); sub(/,$/, "", v); key = $1; if (!(key in ref)) ref[key] = v;
          v = ref[key] * (1 + (v / ref[key] - 1) / 20);
          $0 = substr($0, 1, RSTART - 1) sprintf("%.6f", v * f) (c ? "," : "") } { print }' \
        "$w/good.json" >"$w/store/v0.$1/$side-$(printf %03d "$k")-0.json"
    done
  done
}
case "$case_" in
  loss|gain)
    env=(--head-env BG_PERF_SLOWDOWN_PCT=50); [ "$case_" = gain ] && env=(--base-env BG_PERF_SLOWDOWN_PCT=50)
    rows planted "$bench" "$bench"
    exec "$expect" --name "$name" --exit 0 --check ".v0.planted" --verdict pass --observed "$case_: H/s ratio" -- \
      "$perf" variants --rows "$w/rows.tsv" "${env[@]}" --filter '^synth/chain$' --rounds 6 --reps 1 \
      --min-time 0.02 --work-dir "$w/work" --budgets "$budgets" ;;
  identical)
    stored same 1 -0.003 0 0.003; rows same - -
    exec "$expect" --name "$name" --exit 0 --check ".v0.same" --verdict pass --observed "no useful gain: H/s ratio 1.0" -- \
      "$perf" variants --rows "$w/rows.tsv" --stored "$w/store" --budgets "$budgets" ;;
  undecided)
    stored noisy 1 -0.05 0 0.05; rows noisy - -
    exec "$expect" --name "$name" --exit 0 --check ".v0.noisy" --verdict inconclusive \
      --observed "the interval reaches past a margin" -- \
      "$perf" variants --rows "$w/rows.tsv" --stored "$w/store" --budgets "$budgets" ;;
  gated)
    stored slow 1.3 -0.003 0 0.003; rows slow - -
    "$expect" --name "$name.ungated" --exit 0 --check ".v0.slow" --verdict pass --observed "loss: H/s ratio 0.7" -- \
      "$perf" variants --rows "$w/rows.tsv" --stored "$w/store" --budgets "$budgets"
    awk '/^  "defaults"/ { print "  \"variant_table\": {\"gates\": {\"*/slow\": [\"loss\"]}}," } { print }' \
      "$budgets" >"$w/budgets-gated.json"
    exec "$expect" --name "$name" --exit 1 --check ".v0.slow" --verdict fail \
      --observed "budgets.json variant_table fails this verdict" -- \
      "$perf" variants --rows "$w/rows.tsv" --stored "$w/store" --budgets "$w/budgets-gated.json" ;;
  not_built)
    rows missing "$w/no-such-perf-bench" "$bench"
    exec "$expect" --name "$name" --exit 77 --check ".v0.missing" --verdict skip \
      --observed "not built: $w/no-such-perf-bench" -- \
      "$perf" variants --rows "$w/rows.tsv" --work-dir "$w/work" --budgets "$budgets" ;;
  bad_rows)
    printf 'version\tvariant\texe\n' >"$w/rows.tsv"
    exec "$expect" --name "$name" --exit 4 \
      --stderr "buildgate: bg-perf: variants: $w/rows.tsv:1: the header's column 3 must be 'reference'" -- \
      "$perf" variants --rows "$w/rows.tsv" --work-dir "$w/work" --budgets "$budgets" ;;
  *) echo "buildgate: variants_test.sh: unknown case '$case_'" >&2; exit 2 ;;
esac
