#!/usr/bin/env bash
# selftest.sh CASE BINDIR SRCDIR — one self-test of the perf gate (label selftest).
# Prepares its inputs under BINDIR/selftest-CASE from a real perf-bench run (never
# typed by hand), then runs bg-expect (lib/tools/bg_expect.c), which records the check.
set -euo pipefail
case_=$1 bin=$2 src=$3
w="$bin/selftest-$case_"; rm -rf "$w"; mkdir -p "$w"
perf="$bin/bg-perf" bench="$bin/perf-bench" expect="$bin/../../lib/bg-expect"
budgets="$src/budgets.json"
key=$("$bin/../../lib/bg-host" --key)
good() { "$bench" --benchmark_filter='^synth/chain$' --benchmark_repetitions=6 \
           --benchmark_min_time=0.01 --benchmark_out="$w/good.json" >/dev/null; }
name="perf.selftest.$case_"
# baseline_mutated SED-EXPR TEXT: records a real baseline, mutates it, and
# expects `bg-perf baseline` to refuse it (exit 5, TEXT) without touching it.
baseline_mutated() {
  good; mkdir -p "$w/b"
  "$perf" record --out "$w/b/$key.json" --from "$w/good.json" --reason selftest --budgets "$budgets" >/dev/null
  sed "$1" "$w/b/$key.json" >"$w/b/tmp" && mv "$w/b/tmp" "$w/b/$key.json"
  exec "$expect" --name "$name" --exit 5 --contains "$2" --unchanged "$w/b/$key.json" -- \
    "$perf" baseline --baseline "$w/b" --exe "$bench" --filter '^synth/chain$' --budgets "$budgets" --work-dir "$w"
}
case "$case_" in
  slowdown10)  # a real 10% slowdown (the knob) must fail, naming the benchmark and its interval
    exec "$expect" --name "$name" --exit 1 --contains "synth/chain: fail ratio" --contains "band +-1.0%" -- \
      "$perf" ab --base-exe "$bench" --head-exe "$bench" --head-env BG_PERF_SLOWDOWN_PCT=10 \
      --filter '^synth/chain$' --rounds 5 --reps 3 --min-time 0.03 --work-dir "$w" --budgets "$budgets" ;;
  correlated_aa|correlated_shift10)
    # A/A made of real samples, each process shifted by its own offset
    # (base 0, 1.5, .., 7.5 %, head 3.75 % more: within-process-correlated, an unlucky
    # draw): the sample-level judge calls it a regression, the per-process
    # one must not; the same processes 10 % slower must still fail.  The
    # samples' own spread is shrunk 20x around the first one (a loaded
    # machine's noise would otherwise hide the offsets from both judges).
    good; shift=3.75; [ "$case_" = correlated_shift10 ] && shift=10
    args=()
    for k in 0 1 2 3 4 5; do
      for side in base head; do
        f=$(awk -v k="$k" -v s="$shift" -v side="$side" 'BEGIN { print 1 + (1.5 * k + (side == "head" ? s : 0)) / 100 }')
        awk -v f="$f" '/"(real|cpu)_time":/ { match($0, /[-0-9.e+]+,?$/); v = substr($0, RSTART);
          c = (v ~ /,$/); sub(/,$/, "", v); key = $1; if (!(key in ref)) ref[key] = v;
          v = ref[key] * (1 + (v / ref[key] - 1) / 20);
          $0 = substr($0, 1, RSTART - 1) sprintf("%.6f", v * f) (c ? "," : "") } { print }' \
          "$w/good.json" >"$w/$side-$k.json"
        args+=(--"$side" "$w/$side-$k.json")
      done
    done
    if [ "$case_" = correlated_shift10 ]; then
      exec "$expect" --name "$name" --exit 1 --contains "synth/chain: fail ratio" --contains "processes 6/6" -- \
        "$perf" compare "${args[@]}" --budgets "$budgets"
    fi
    "$expect" --name "$name.sample_unit" --exit 1 --contains "synth/chain: fail ratio" -- \
      "$perf" compare "${args[@]}" --budgets "$budgets" --unit sample
    exec "$expect" --name "$name" --exit 0 --contains "processes 6/6" -- "$perf" compare "${args[@]}" --budgets "$budgets" ;;
  callgrind_slowdown)  # 0.5% more instructions must fail the instruction-count mode
    exec "$expect" --name "$name" --exit 1 --contains "synth/chain: fail ratio 1.00" --contains "(deterministic, instructions per iteration" -- \
      "$perf" callgrind --base-exe "$bench" --head-exe "$bench" --head-env BG_PERF_SLOWDOWN_PCT=0.5 \
      --filter '^synth/chain$' --work-dir "$w" --budgets "$budgets" ;;
  no_valgrind)  # no valgrind on PATH: one line, a skip (77)
    mkdir -p "$w/path"; ln -s "$(command -v env)" "$w/path/env"
    exec "$expect" --name "$name" --exit 77 --contains "valgrind is not installed" -- \
      env PATH="$w/path" "$perf" callgrind --base-exe "$bench" --head-exe "$bench" --filter '^synth/chain$' \
      --work-dir "$w" --budgets "$budgets" ;;
  truncated)
    good; head -c 700 "$w/good.json" >"$w/t.json"
    exec "$expect" --name "$name" --exit 4 --contains "buildgate: benchmark results:" -- \
      "$perf" compare --base "$w/good.json" --head "$w/t.json" --budgets "$budgets" ;;
  malformed)
    good; sed 's/"benchmarks": \[/"benchmarks": [[/' "$w/good.json" >"$w/m.json"
    exec "$expect" --name "$name" --exit 4 --contains "buildgate: " -- \
      "$perf" compare --base "$w/good.json" --head "$w/m.json" --budgets "$budgets" ;;
  zero_reps)
    good; sed 's/"benchmarks": \[/"benchmarks": [], "dropped": [/' "$w/good.json" >"$w/z.json"
    exec "$expect" --name "$name" --exit 4 --contains "zero repetitions" -- \
      "$perf" compare --base "$w/good.json" --head "$w/z.json" --budgets "$budgets" ;;
  bench_error)  # a benchmark that reports an error: exit 7, named
    good; sed 's/"run_type": "iteration",/"run_type": "iteration", "error_occurred": true, "error_message": "injected",/' \
      "$w/good.json" >"$w/e.json"
    exec "$expect" --name "$name" --exit 7 --contains "benchmark synth/chain reported an error: injected" -- \
      "$perf" compare --base "$w/good.json" --head "$w/e.json" --budgets "$budgets" ;;
  bench_crash)  # a benchmark program killed by a signal: exit 7, the signal named
    printf '#!/bin/sh\nkill -SEGV $$\n' >"$w/crash.sh"; chmod +x "$w/crash.sh"
    exec "$expect" --name "$name" --exit 7 --contains "killed by signal 11" -- \
      "$perf" ab --base-exe "$bench" --head-exe "$w/crash.sh" --filter '^synth/chain$' --rounds 1 --reps 1 \
      --min-time 0.01 --work-dir "$w" --budgets "$budgets" ;;
  other_host)
    baseline_mutated "s/\"host\":[[:space:]]*\"$key\"/\"host\": \"linux-x86_64-other-cpu-64c\"/" \
      "recorded on host linux-x86_64-other-cpu-64c" ;;
  other_schema)
    baseline_mutated 's/"schema":[[:space:]]*1,/"schema": 99,/' "schema 99" ;;
  truncated_baseline)  # cut after its first lines: corrupt stored data, exit 5 like the others
    baseline_mutated '4,$d' "buildgate: baseline:" ;;
  no_baseline)
    mkdir -p "$w/b"
    exec "$expect" --name "$name" --exit 77 --contains "no baseline for host $key" --contains 'ci/update-baselines --approve' -- \
      "$perf" baseline --baseline "$w/b" --exe "$bench" --budgets "$budgets" --work-dir "$w" ;;
  no_reason)
    good; mkdir -p "$w/b"
    "$perf" record --out "$w/b/$key.json" --from "$w/good.json" --reason first --budgets "$budgets" >/dev/null
    exec "$expect" --name "$name" --exit 2 --contains "a reason is required" --unchanged "$w/b/$key.json" -- \
      "$perf" record --out "$w/b/$key.json" --from "$w/good.json" --reason "" --budgets "$budgets" ;;
  debug_build)  # a Debug build is refused unless --force
    good; mkdir -p "$w/b"
    exec "$expect" --name "$name" --exit 2 --contains "refusing a Debug build" -- \
      "$perf" record --out "$w/b/$key.json" --from "$w/good.json" --reason x --build-type Debug --budgets "$budgets" ;;
  cpu_scaling)  # a context with CPU frequency scaling is refused unless --force
    good; mkdir -p "$w/b"
    sed 's/"cpu_scaling_enabled": false/"cpu_scaling_enabled": true/' "$w/good.json" >"$w/s.json"
    grep -q '"cpu_scaling_enabled": true' "$w/s.json"
    exec "$expect" --name "$name" --exit 2 --contains "CPU frequency scaling is enabled" -- \
      "$perf" record --out "$w/b/$key.json" --from "$w/s.json" --reason x --budgets "$budgets" ;;
  other_host_file)  # record never writes a file named for another host
    good; mkdir -p "$w/b"; echo '{"keep": true}' >"$w/b/linux-x86_64-other-cpu-64c.json"
    exec "$expect" --name "$name" --exit 2 --contains "is not this host's baseline file" \
      --unchanged "$w/b/linux-x86_64-other-cpu-64c.json" -- \
      "$perf" record --out "$w/b/linux-x86_64-other-cpu-64c.json" --from "$w/good.json" --reason x --budgets "$budgets" ;;
  *) echo "buildgate: perf selftest: unknown case '$case_'" >&2; exit 2 ;;
esac
