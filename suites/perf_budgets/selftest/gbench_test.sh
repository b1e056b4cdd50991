#!/usr/bin/env bash
# gbench_test.sh CASE VERSION BINDIR SRCDIR — bg-perf on Google Benchmark JSON as
# Google Benchmark writes it (docs/perf_budgets.md "Input: Google Benchmark JSON").
# The inputs are the real outputs of fixtures/perf_budgets/gbench/writer.cc built
# against Google Benchmark VERSION (1.7.1, 1.8.3, 1.9.1: gbench-VERSION.json), or
# rows cut out of them (whole rows, never retyped), some then mutated.  Each case
# runs bg-expect (lib/tools/bg_expect.c), which asserts the exit status and the
# exact verdict (and observed text) of each named check bg-perf records.
set -euo pipefail
case_=$1 ver=$2 bin=$3 src=$4
fx="$src/../../fixtures/perf_budgets/gbench/gbench-$ver.json"
w="$bin/gbench-$case_-$ver"; rm -rf "$w"; mkdir -p "$w"
perf="$bin/bg-perf" expect="$bin/../../lib/bg-expect"
kind=selftest; case "$case_" in read|nonfinite_counter) kind=unit ;; esac
name="perf.$kind.gbench_$case_.v${ver//./}"  # the CTest name (CMakeLists.txt)
[ "$ver" = - ] && name="perf.$kind.gbench_$case_"
[ "$ver" = - ] || [ -r "$fx" ] || { echo "buildgate: gbench test: $fx: no such fixture (restore it: git checkout -- fixtures/perf_budgets/gbench)" >&2; exit 5; }
# aggregates-VERSION.json: fixtures/perf_budgets/gbench/aggregates.cc's output
# (ReportAggregatesOnly, DisplayAggregatesOnly, repetitions, a rate counter)
agg="$src/../../fixtures/perf_budgets/gbench/aggregates-$ver.json"
case "$case_" in agg_*|counter_*)
  [ -r "$agg" ] || { echo "buildgate: gbench test: $agg: no such fixture (restore it: git checkout -- fixtures/perf_budgets/gbench)" >&2; exit 5; }
  fx=$agg ;;
esac
# rows RE OUT: the document with only the rows whose run_name matches RE (ERE)
rows() {
  awk -v re="$1" '
    /^    \{$/ { inrow = 1; buf = ""; keep = 0 }
    inrow { buf = buf $0 "\n"; if ($0 ~ /^      "run_name": / && match($0, /"[^"]*",$/)) {
              n = substr($0, RSTART + 1, RLENGTH - 3); if (n ~ re) keep = 1 } }
    inrow && /^    \},?$/ { inrow = 0; if (keep) { sub(/\},?\n$/, "}", buf); out = out (nrow++ ? ",\n" : "") buf }; next }
    !inrow && /^  \]$/ { printf "%s\n", out }
    !inrow { print }' "$fx" >"$2"
}
# scale RE FIELD K IN OUT: IN with FIELD of every row whose run_name matches RE
# (ERE) multiplied by K (a slower or faster head made from the real rows)
scale() {
  awk -v re="$1" -v f="$2" -v k="$3" '
    /^      "run_name": / { n = $0; sub(/^      "run_name": "/, "", n); sub(/",$/, "", n); hit = n ~ re }
    hit && index($0, "      \"" f "\": ") == 1 {
      v = $0; sub(/^[^:]*: /, "", v); c = sub(/,$/, "", v) ? "," : ""
      $0 = sprintf("      \"%s\": %.17g%s", f, v * k, c) }
    { print }' "$4" >"$5"
  cmp -s "$4" "$5" && { echo "buildgate: gbench test: scale: no $2 of /$1/ in $4" >&2; exit 5; }
  return 0
}
# c NAME VERDICT [OBSERVED]: assert that check perf.<mode>.NAME has VERDICT (and
# that its observed contains OBSERVED); collected in A for bg-expect
A=()
c() { A+=(--check ".$1" --verdict "$2"); [ $# -lt 3 ] || A+=(--observed "$3"); }
# band 90%: the three repetitions of one process differ by up to 2x (a loaded
# machine wrote them) and the two-level bootstrap resamples them; the interval
# is seeded by the name, so the same fixture gives the same verdict every run
printf '{"schema": 1, "defaults": {"band": 0.9, "metric": "real_time"}}\n' >"$w/budgets.json"
cmp5() { # cmp5 BASE HEAD [ARGS...]: compare, 5 processes of BASE against 5 of HEAD
  cmpn 5 "$@"
}
cmpn() { # cmpn N BASE HEAD [ARGS...]: compare, N processes of BASE against N of HEAD
  local n=$1 b=$2 h=$3; shift 3
  local a=()
  while [ ${#a[@]} -lt $((4 * n)) ]; do a+=(--base "$b" --head "$h"); done
  "$perf" compare "${a[@]}" --budgets "$w/budgets.json" "$@"
}
export -f cmp5 cmpn; export perf w
# median of the three iteration real_time values of run_name N, times K, as %.6g
median_ns() {
  awk -v n="$1" -v k="$2" '
    /^      "run_name": / { cur = ($0 ~ ("\"" n "\",$")) }
    /^      "run_type": "iteration"/ { it = cur }
    /^      "run_type": "aggregate"/ { it = 0 }
    it && /^      "real_time": / { v = $2; sub(/,$/, "", v); x[m++] = v * k }
    END { if (m != 3) exit 1; if (x[0] > x[1]) { t = x[0]; x[0] = x[1]; x[1] = t }
          if (x[1] > x[2]) { t = x[1]; x[1] = x[2]; x[2] = t }
          if (x[0] > x[1]) { t = x[0]; x[0] = x[1]; x[1] = t }
          printf "%.6g", x[1] }' "$fx"
}
case "$case_" in
  read)  # the whole real file against itself: every benchmark its verdict, times in ns
    ms=$(median_ns 'BM_ok/batch:64/threads:2' 1e6) s=$(median_ns BM_sec 1e9)
    c 'BM_ok/batch:64/threads:2' pass "median $ms -> $ms real_time"
    c BM_sec pass "median $s -> $s real_time"
    c BM_nan pass
    c BM_error fail "BM_error: fail: head: reported an error: no device: error on purpose"
    c 'BM_manual_nan/iterations:10/manual_time' fail "head: real_time is NaN"
    [ "$ver" = 1.7.1 ] || c BM_skip skip "skipped by the benchmark in the head: CPU feature missing: skipped on purpose"
    exec "$expect" --name "$name" --exit 7 "${A[@]}" -- bash -c 'cmp5 "$1" "$1"' _ "$fx" ;;
  nonfinite_counter)  # NaN / Infinity / -Infinity user counters: the timed metric is judged
    rows '^BM_nan$' "$w/nan.json"
    grep -q '"neg_inf": -Infinity' "$w/nan.json"
    c BM_nan pass
    exec "$expect" --name "$name" --exit 0 "${A[@]}" -- bash -c 'cmp5 "$1" "$1"' _ "$w/nan.json" ;;
  infinite_metric)  # a judged metric Google Benchmark wrote as Infinity: that benchmark fails by name
    rows '^(BM_sec|BM_nan)$' "$w/base.json"
    awk '/"run_name": "BM_sec"/ { s = 1 } s && /"real_time": / && !done { sub(/[-0-9.e+]+,$/, "Infinity,"); done = 1 } { print }' \
      "$w/base.json" >"$w/head.json"
    grep -q '"real_time": Infinity,' "$w/head.json"
    c BM_sec fail "BM_sec: fail: head: real_time is Infinity"; c BM_nan pass
    exec "$expect" --name "$name" --exit 1 "${A[@]}" -- bash -c 'cmp5 "$1" "$2"' _ "$w/base.json" "$w/head.json" ;;
  skipped)  # "skipped": true (1.8+): a skip with its message, the rest judged
    rows '^(BM_skip|BM_sec)$' "$w/s.json"
    c BM_skip skip "CPU feature missing: skipped on purpose"; c BM_sec pass
    exec "$expect" --name "$name" --exit 0 "${A[@]}" -- bash -c 'cmp5 "$1" "$1"' _ "$w/s.json" ;;
  error)  # "error_occurred": true: that benchmark fails with its message, the rest judged, exit 7
    rows '^(BM_error|BM_sec)$' "$w/e.json"
    c BM_error fail "reported an error: no device: error on purpose"; c BM_sec pass
    exec "$expect" --name "$name" --exit 7 "${A[@]}" -- bash -c 'cmp5 "$1" "$1"' _ "$w/e.json" ;;
  vanished)  # in the base, not in the head: fail
    rows '^(BM_nan|BM_sec)$' "$w/base.json"; rows '^BM_nan$' "$w/head.json"
    c BM_sec fail "BM_sec: fail: vanished: in the base, not in the head"; c BM_nan pass
    exec "$expect" --name "$name" --exit 1 "${A[@]}" -- bash -c 'cmp5 "$1" "$2"' _ "$w/base.json" "$w/head.json" ;;
  retired)  # the same, retired in budgets.json with a reason: a skip quoting it
    rows '^(BM_nan|BM_sec)$' "$w/base.json"; rows '^BM_nan$' "$w/head.json"
    printf '{"schema": 1, "defaults": {"band": 0.9}, "retired": {"BM_sec": "replaced by BM_nan in the test"}}\n' >"$w/r.json"
    c BM_sec skip "retired (budgets.json): replaced by BM_nan in the test"; c BM_nan pass
    exec "$expect" --name "$name" --exit 0 "${A[@]}" \
      -- bash -c 'cmp5 "$1" "$2" --budgets "$3"' _ "$w/base.json" "$w/head.json" "$w/r.json" ;;
  retired_no_reason)  # a retirement without a reason is a budgets.json error
    rows '^BM_nan$' "$w/head.json"
    printf '{"schema": 1, "retired": {"BM_sec": " "}}\n' >"$w/r.json"
    exec "$expect" --name "$name" --exit 4 --stderr "buildgate: bg-perf: budgets: $w/r.json: BM_sec: a retirement needs a reason" \
      -- bash -c 'cmp5 "$1" "$1" --budgets "$2"' _ "$w/head.json" "$w/r.json" ;;
  new)  # in the head only: skip, no reference
    rows '^BM_nan$' "$w/base.json"; rows '^(BM_nan|BM_sec)$' "$w/head.json"
    c BM_sec skip "BM_sec: skip: new, no reference"; c BM_nan pass
    exec "$expect" --name "$name" --exit 0 "${A[@]}" -- bash -c 'cmp5 "$1" "$2"' _ "$w/base.json" "$w/head.json" ;;
  no_common)  # a renamed benchmark: nothing in common is a fail, never a skip (77)
    rows '^BM_sec$' "$w/base.json"; rows '^BM_nan$' "$w/head.json"
    c compare.common fail "no benchmark in common: 1 in the base only, 1 in the head only"
    c BM_sec fail vanished; c BM_nan skip new
    exec "$expect" --name "$name" --exit 1 "${A[@]}" -- bash -c 'cmp5 "$1" "$2"' _ "$w/base.json" "$w/head.json" ;;
  missing_procs)  # in 1 of 5 head processes only: a fail naming the 4 that lack it, never
    # judged on the one process that ran it (the other benchmark is judged on all 5)
    rows '^(BM_nan|BM_sec)$' "$w/both.json"; rows '^BM_nan$' "$w/nan.json"
    c BM_sec fail "BM_sec: fail: head: missing from 4 of 5 processes"; c BM_nan pass
    exec "$expect" --name "$name" --exit 1 "${A[@]}" -- "$perf" compare --budgets "$w/budgets.json" \
      --base "$w/both.json" --base "$w/both.json" --base "$w/both.json" --base "$w/both.json" \
      --base "$w/both.json" --head "$w/both.json" --head "$w/nan.json" --head "$w/nan.json" \
      --head "$w/nan.json" --head "$w/nan.json" ;;
  one_process)  # one process a side: the between-process sd cannot be estimated and says
    # so ("n/a (one process a side)"), never "nan%" (the verdict: too few processes)
    rows '^BM_sec$' "$w/one.json"
    c BM_sec inconclusive
    exec "$expect" --name "$name" --exit 0 "${A[@]}" --contains "sd between n/a (one process a side) within " \
      -- "$perf" compare --budgets "$w/budgets.json" --base "$w/one.json" --head "$w/one.json" ;;
  bad_time_unit)  # a time_unit Google Benchmark never writes: exit 4 naming the value
    rows '^BM_sec$' "$w/base.json"
    sed 's/"time_unit": "s"/"time_unit": "min"/' "$w/base.json" >"$w/head.json"
    grep -q '"time_unit": "min"' "$w/head.json"
    exec "$expect" --name "$name" --exit 4 \
      --stderr "buildgate: bg-perf: $w/head.json: benchmark BM_sec: time_unit \"min\" is not ns, us, ms or s" \
      -- bash -c 'cmp5 "$1" "$2"' _ "$w/base.json" "$w/head.json" ;;
  ab_vanished)  # the PR judge (bg-perf ab, as ab-merge-base.sh runs it) on two programs: a
    # benchmark the head lost (its --benchmark_filter, the last one, wins) is run on the
    # base alone and fails as vanished; VERSION is unused (the installed Google Benchmark).
    # synth/chain, on both sides, is judged (its verdict is timing: not asserted)
    printf '#!/bin/sh\nexec "%s" "$@" "--benchmark_filter=^synth/chain$"\n' "$bin/perf-bench" >"$w/head.sh"
    chmod +x "$w/head.sh"
    printf '{"schema": 1, "defaults": {"band": 0.9, "min_repetitions": 2, "max_reruns": 0}}\n' >"$w/ab.json"
    c bg_bench/overhead/c_batch/seed:88172645463325252 fail "vanished: in the base, not in the head"
    exec "$expect" --name "$name" --exit 1 "${A[@]}" --contains "synth/chain: " -- \
      "$perf" ab --base-exe "$bin/perf-bench" --head-exe "$w/head.sh" --filter '^(synth/chain|bg_bench/overhead/c_batch/.*)$' \
      --rounds 2 --reps 1 --min-time 0.01 --work-dir "$w" --budgets "$w/ab.json" ;;
  agg_slower)  # ReportAggregatesOnly(true) on one benchmark: the file has only its
    # mean/median/stddev/cv rows; its median aggregate is each process's sample, so a
    # 2.6x slower head fails (main gave it no check at all: exit 0); every other kind
    # (DisplayAggregatesOnly, plain repetitions, one repetition) is judged as before.
    # 8 processes a side: with 5, p = 0.004 is not below alpha 0.01 once 6 benchmarks
    # share the false-discovery correction (inconclusive, an "unresolved slowdown")
    cp "$fx" "$w/base.json"
    scale '^BM_agg_only/repeats:5$' real_time 2.6 "$w/base.json" "$w/head.json"
    c 'BM_agg_only/repeats:5' fail "within n/a (median aggregate only)"
    c 'BM_display_agg/repeats:5' pass; c 'BM_reps/repeats:5' pass; c 'BM_agg_one/repeats:1' pass
    c 'BM_rate/repeats:5' pass; c BM_rate_iter pass
    exec "$expect" --name "$name" --exit 1 "${A[@]}" -- bash -c 'cmpn 8 "$1" "$2"' _ "$w/base.json" "$w/head.json" ;;
  agg_file)  # a file of aggregate-only benchmarks (no iteration row at all) is judged,
    # not "zero repetitions" (exit 4 on main)
    rows '^BM_(agg_only|rate)/repeats:5$' "$w/a.json"
    if grep -q '"run_type": "iteration"' "$w/a.json"; then
      echo "buildgate: gbench test: $w/a.json: holds an iteration row" >&2; exit 5
    fi
    c 'BM_agg_only/repeats:5' pass "median"; c 'BM_rate/repeats:5' pass
    exec "$expect" --name "$name" --exit 0 "${A[@]}" -- bash -c 'cmp5 "$1" "$1"' _ "$w/a.json" ;;
  counter_undeclared)  # a user counter as the metric without "higher_is_better": refused
    printf '{"schema": 1, "defaults": {"band": 0.9, "metric": "hashes"}}\n' >"$w/u.json"
    exec "$expect" --name "$name" --exit 4 \
      --stderr "buildgate: bg-perf: budgets: $w/u.json: defaults: metric \"hashes\" is a user counter: Google Benchmark's JSON does not record its direction (kIsRate, kInvert), so declare it: \"higher_is_better\": true (a rate) or false (a time or a cost)" \
      -- bash -c 'cmp5 "$1" "$1" --budgets "$2"' _ "$fx" "$w/u.json" ;;
  counter_contradicts)  # a declaration against a known direction: refused
    printf '{"schema": 1, "defaults": {"metric": "items_per_second", "higher_is_better": false}}\n' >"$w/x.json"
    exec "$expect" --name "$name" --exit 4 \
      --stderr "buildgate: bg-perf: budgets: $w/x.json: defaults: \"higher_is_better\": false contradicts metric \"items_per_second\", which is higher-is-better" \
      -- bash -c 'cmp5 "$1" "$1" --budgets "$2"' _ "$fx" "$w/x.json" ;;
  counter_rate_slower)  # a kIsRate counter named without _per_second ("hashes"), declared
    # higher-is-better, 3x slower (a third of the rate): fails (main judged it lower-is-
    # better from its name: "improved", exit 0); the aggregate-only BM_rate likewise
    cp "$fx" "$w/base.json"
    scale '^BM_rate(_iter|/repeats:5)$' hashes 0.3333333333333333 "$w/base.json" "$w/head.json"
    printf '{"schema": 1, "defaults": {"band": 0.9, "metric": "hashes", "higher_is_better": true}}\n' >"$w/h.json"
    c BM_rate_iter fail "hashes"; c 'BM_rate/repeats:5' fail "hashes"
    exec "$expect" --name "$name" --exit 1 "${A[@]}" \
      -- bash -c 'cmp5 "$1" "$2" --budgets "$3"' _ "$w/base.json" "$w/head.json" "$w/h.json" ;;
  counter_items_slower)  # items_per_second is known higher-is-better: no declaration needed
    cp "$fx" "$w/base.json"
    scale '^BM_rate_iter$' items_per_second 0.3333333333333333 "$w/base.json" "$w/head.json"
    printf '{"schema": 1, "defaults": {"band": 0.9, "metric": "items_per_second"}}\n' >"$w/i.json"
    c BM_rate_iter fail "items_per_second"; c 'BM_rate/repeats:5' pass
    exec "$expect" --name "$name" --exit 1 "${A[@]}" \
      -- bash -c 'cmp5 "$1" "$2" --budgets "$3"' _ "$w/base.json" "$w/head.json" "$w/i.json" ;;
  *) echo "buildgate: gbench test: unknown case '$case_'" >&2; exit 2 ;;
esac
