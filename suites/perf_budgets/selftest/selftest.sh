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
# mkproc FACTOR OUT: good.json's samples, their spread shrunk 20x around the
# first one (a loaded machine's noise would hide small offsets), times FACTOR.
mkproc() {
  awk -v f="$1" '/"(real|cpu)_time":/ { match($0, /[-0-9.e+]+,?$/); v = substr($0, RSTART);
    c = (v ~ /,$/); sub(/,$/, "", v); key = $1; if (!(key in ref)) ref[key] = v;
    v = ref[key] * (1 + (v / ref[key] - 1) / 20);
    $0 = substr($0, 1, RSTART - 1) sprintf("%.6f", v * f) (c ? "," : "") } { print }' "$w/good.json" >"$2"
}
# baseline_mutated SED-EXPR TEXT: records a real baseline, mutates it, and
# expects `bg-perf baseline` to refuse it (exit 5, TEXT) without touching it.
baseline_mutated() {
  good; mkdir -p "$w/b"
  "$perf" record --out "$w/b/$key.json" --from "$w/good.json" --reason selftest --budgets "$budgets" >/dev/null
  sed "$1" "$w/b/$key.json" >"$w/b/tmp" && mv "$w/b/tmp" "$w/b/$key.json"
  exec "$expect" --name "$name" --exit 5 --contains "$2" --unchanged "$w/b/$key.json" -- \
    "$perf" baseline --baseline "$w/b" --exe "$bench" --filter '^synth/chain$' --budgets "$budgets" --work-dir "$w"
}
# mkpairs SHIFT: ten duet pairs of good.json's samples into args (--base/--head), each pair
# disturbed alike (both sides +4 % per pair index: what a duet cancels), the head SHIFT times slower.
mkpairs() {
  args=()
  for k in 0 1 2 3 4 5 6 7 8 9; do
    mkproc "$(awk -v k="$k" 'BEGIN { print 1 + 0.04 * k }')" "$w/base-$k.json"
    mkproc "$(awk -v k="$k" -v s="$1" 'BEGIN { print s * (1 + 0.04 * k) }')" "$w/head-$k.json"
    args+=(--base "$w/base-$k.json" --head "$w/head-$k.json")
  done
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
        mkproc "$f" "$w/$side-$k.json"
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
  overflow)  # head medians near double's limit: the ratio overflows to inf and its interval
    # to NaN, which compares false; it must fail, not pass (fresh-user trial: "pass ratio inf [-nan, -nan]")
    good; args=()
    for k in 0 1 2 3 4 5; do
      mkproc 1 "$w/base-$k.json"
      sed -E 's/"(real|cpu)_time": [^,]*/"\1_time": 1.7e308/' "$w/base-$k.json" >"$w/head-$k.json"
      args+=(--base "$w/base-$k.json" --head "$w/head-$k.json")
    done
    exec "$expect" --name "$name" --exit 1 --contains "synth/chain: fail ratio" \
      --contains "the ratio or its interval is not a finite number" -- "$perf" compare "${args[@]}" --budgets "$budgets" ;;
  callgrind_slowdown)  # 0.5% more instructions must fail the instruction-count mode
    # (--ir-only: the Ir judge alone, without the cache simulation's cost)
    exec "$expect" --name "$name" --exit 1 --contains "synth/chain: fail ratio 1.00" --contains "(deterministic, instructions per iteration" -- \
      "$perf" callgrind --base-exe "$bench" --head-exe "$bench" --head-env BG_PERF_SLOWDOWN_PCT=0.5 \
      --filter '^synth/chain$' --ir-only --work-dir "$w" --budgets "$budgets" ;;
  callgrind_randomx1)  # 1% more work per RandomX hash (the knob's filler) must fail the Ir mode
    # (randomx/<version>/<variant>/: whichever RandomX this perf-bench links)
    exec "$expect" --name "$name" --exit 1 --contains "/hash/light-jit-hard: fail ratio 1.0" -- \
      "$perf" callgrind --base-exe "$bench" --head-exe "$bench" --head-env BG_PERF_SLOWDOWN_PCT=1 \
      --filter '^randomx/[^/]+/[^/]+/hash/light-jit-hard$' --ir-only --work-dir "$w" --budgets "$budgets" ;;
  callgrind_function)  # which function got slower: 0.5 % more work planted in one named
    # (2000 iterations: chain_run's 12007 Ir per iteration are exact at any N)
    # function (the knob scales chain_run's loop) must be named FIRST in report.md's
    # "Which function got slower", with its share of the change, and drawn in report.html's
    # differential flame graph; the profiles are what this host's callgrind writes
    mkdir -p "$w/checks"
    BG_CHECKS_FILE="$w/checks/perf.callgrind.function.jsonl" BG_TEST_NAME=perf.callgrind.function \
      "$perf" callgrind --base-exe "$bench" --head-exe "$bench" --head-env BG_PERF_SLOWDOWN_PCT=0.5 \
      --filter '^synth/chain$' --iterations 2000 --work-dir "$w" --budgets "$budgets" >"$w/perf.out" 2>&1 || true
    "$bin/../../lib/bg-report" --checks-dir "$w/checks" --out-dir "$w/out" >/dev/null 2>&1 || true
    # the section's first "Top function" line and its first table row, and the flame graph's
    # red (grown) frame named chain_run
    exec "$expect" --name "$name" --exit 0 --contains 'first: Top function: **`chain_run`** +60 Ir per iteration, **' \
      --contains 'share >= 90 %' --contains 'first row: | `chain_run` | 12007 | 12067 | +60 |' \
      --contains 'flame: chain_run red' -- \
      bash -c 'md=$0/report.md; sec=$(sed -n "/^### Which function got slower/,\$p" "$md")
        top=$(printf "%s\n" "$sec" | grep -m1 "^Top function")
        echo "first: $top"
        share=$(printf "%s\n" "$top" | sed -n "s/.*\*\*\([0-9.]*\) % of the change.*/\1/p")
        awk -v s="$share" "BEGIN { exit !(s >= 90) }" && echo "share >= 90 %"
        echo "first row: $(printf "%s\n" "$sec" | grep -m1 "^| \`")"
        grep -q "<svg class=\"flame\"" "$0/report.html" &&
          grep -o "chain_run[^<]*</title><rect[^>]*fill=\"rgb(255,[^>]*" "$0/report.html" | grep . >/dev/null &&
          echo "flame: chain_run red"' "$w/out" ;;
  callgrind_chase)  # a memory-latency regression (BG_PERF_CHASE_LOADS=20000: 20000 dependent
    # loads through a 64 MiB cycle after each RandomX hash, about +0.07 % Ir) passes the Ir
    # judge and must fail the estimated-cycles judge, naming rx_chase first
    exec "$expect" --name "$name" --exit 1 --contains "pass         perf.callgrind.randomx/" \
      --contains "fail         perf.callgrind_cycles.randomx/" \
      --contains "top function by self change: rx_chase" -- \
      "$perf" callgrind --base-exe "$bench" --head-exe "$bench" --head-env BG_PERF_CHASE_LOADS=20000 \
      --filter '^randomx/[^/]+/[^/]+/hash/light-jit-hard$' --work-dir "$w" --budgets "$budgets" ;;
  callgrind_prefetch)  # docs/perf_budgets.md says callgrind's cache simulation does not model
    # software prefetch: with and without a prefetch of each line (study/cg_prefetch.c) the
    # data references and every miss count are equal, only Ir grows.  If a valgrind starts
    # modelling it, this fails and the page must be updated.  The comparison itself must
    # refuse a mutant pair whose prefetching run has one LL read miss fewer.
    for a in 0 1; do
      valgrind --tool=callgrind --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 --LL=8388608,16,64 \
        --callgrind-out-file="$w/cg.$a" "$bin/cg-prefetch" "$a" >/dev/null 2>&1 || true
    done
    awk '/^summary:/ { $9 = $9 - 1 } { print }' "$w/cg.1" >"$w/cg.1.mutant"
    cat >"$w/same.awk" <<'AWK'
/^events:/ { for (i = 2; i <= NF; i++) ev[FILENAME, i - 1] = $i }
/^summary:/ { for (i = 2; i <= NF; i++) v[FILENAME, ev[FILENAME, i - 1]] = $i; n[FILENAME] = NF - 1 }
END { a = ARGV[1]; b = ARGV[2]; same = n[a] == 9
      split("Dr Dw D1mr D1mw DLmr DLmw", k, " ")
      for (j = 1; j <= 6; j++) { printf "%s %s -> %s\n", k[j], v[a, k[j]], v[b, k[j]]; same = same && v[a, k[j]] == v[b, k[j]] }
      printf "Ir %s -> %s\n", v[a, "Ir"], v[b, "Ir"]
      print (same && v[b, "Ir"] > v[a, "Ir"]) ? "data references and misses equal; Ir grew" : "they differ" }
AWK
    exec "$expect" --name "$name" --exit 0 --contains "real: data references and misses equal; Ir grew" \
      --contains "mutant: they differ" -- bash -c 'echo "real: $(awk -f "$0/same.awk" "$0/cg.0" "$0/cg.1" | tail -n 1)"
        echo "mutant: $(awk -f "$0/same.awk" "$0/cg.0" "$0/cg.1.mutant" | tail -n 1)"' "$w" ;;
  callgrind_floor)  # --iterations 2 on benchmarks whose iteration costs ~12 Ir (bg_bench) or
    # 12000 Ir (synth): the run-to-run variation of the process's fixed cost (10^2..10^3 Ir)
    # made A/A fail or error ("Ir(2) is not above Ir(1)"); raised to each benchmark's
    # floor (budgets ir_min_iterations) with one line, A/A must pass.  And a budgets file
    # whose ir_iterations is below its floor is refused (exit 4, naming the entry).
    printf '%s\n' '{"schema": 1, "benchmarks": {"synth/": {"ir_iterations": 100, "ir_min_iterations": 1000}}}' >"$w/low.json"
    "$expect" --name "$name.budgets" --exit 4 --contains "ir_iterations must be >= ir_min_iterations" \
      --contains "synth/" -- "$perf" callgrind --base-exe "$bench" --head-exe "$bench" --filter '^synth/chain$' \
      --budgets "$w/low.json" --work-dir "$w"
    exec "$expect" --name "$name" --exit 0 \
      --contains "bg-perf: synth/chain: --iterations 2 raised to 2000, the benchmark's floor" \
      --contains "bg-perf: bg_bench/overhead/c_batch/seed:88172645463325252: --iterations 2 raised to 2000000" \
      --contains "pass         perf.callgrind_cycles.synth/chain" \
      --contains "pass         perf.callgrind_cycles.bg_bench/overhead/c_batch/" -- \
      "$perf" callgrind --base-exe "$bench" --head-exe "$bench" --filter '^(synth/chain|bg_bench/overhead/c_batch/.*)$' \
      --iterations 2 --work-dir "$w" --budgets "$budgets" ;;
  callgrind_interrupt)  # SIGINT to bg-perf callgrind (its pid, not its group) must stop valgrind
    # too (perf_run.c spawns it in bg-perf's own group): exit 130, one line saying so, and no
    # valgrind of this run left (found by this run's unique --work-dir in their command lines;
    # other valgrinds on the host are not ours).  Job control: a background job of a script
    # would otherwise start with SIGINT ignored.
    command -v valgrind >/dev/null || {
      "$bin/../../lib/bg-check" --suite perf_budgets --name "$name" --verdict skip --observed "valgrind not installed"; exit 77; }
    set -m
    mark="$w/intr-$$-$(date +%s)"; mkdir -p "$mark"
    "$perf" callgrind --base-exe "$bench" --head-exe "$bench" --filter '^synth/chain$' --iterations 50000000 \
      --work-dir "$mark" --budgets "$budgets" >"$w/out" 2>"$w/err" &
    pid=$!
    ours() { pgrep -f -- "--callgrind-out-file=$mark/" || true; }
    # started, and past its start-up output (3 s of CPU): an earlier kill of bg-perf alone also
    # ends valgrind, by the broken pipe of its next line, and would hide a left-over
    for _ in $(seq 1 600); do
      v=$(ours | head -n 1)
      [ -n "$v" ] && [ "$(ps -o times= -p "$v" 2>/dev/null | tr -d ' ')" -ge 3 ] 2>/dev/null && break
      sleep 0.1
    done
    started=$([ -n "$(ours)" ] && echo "valgrind started" || echo "valgrind never started")
    kill -INT "$pid"
    rc=0; wait "$pid" || rc=$?
    for _ in $(seq 1 50); do [ -z "$(ours)" ] && break; sleep 0.1; done
    left=$(ours | wc -l | tr -d ' ')
    for p in $(ours); do kill -KILL "$p" 2>/dev/null; done # never leave one behind, even failing
    said=$(grep -c '^buildgate: bg-perf: interrupted by SIGINT: valgrind stopped$' "$w/err" || true)
    exec "$bin/../../lib/bg-check" --suite perf_budgets --name "$name" \
      --expect-equal "valgrind started, exit 130, said once, valgrind left: 0" \
      "$started, exit $rc, said $([ "$said" = 1 ] && echo once || echo "$said times: $(head -c 200 "$w/err")"), valgrind left: $left" ;;
  no_valgrind)  # no valgrind on PATH: one line, a skip (77)
    mkdir -p "$w/path"; ln -s "$(command -v env)" "$w/path/env"
    exec "$expect" --name "$name" --exit 77 --contains "valgrind is not installed" -- \
      env PATH="$w/path" "$perf" callgrind --base-exe "$bench" --head-exe "$bench" --filter '^synth/chain$' \
      --work-dir "$w" --budgets "$budgets" ;;
  unresolved_top|unresolved_aa)
    # A clear shift with too few processes to be significant (3 per side,
    # below min_repetitions: +11 %, the interval wholly above the 1 % band)
    # must not pass silently: the FIRST line of the output says
    # UNRESOLVED SLOWDOWN with the command that decides it, the check says
    # "unresolved slowdown: ..." (perf_gate.h).  The A/A control (no shift)
    # must not say it.
    good; shift=1.11; [ "$case_" = unresolved_aa ] && shift=1.0
    args=()
    for k in 0 1 2; do
      mkproc "$(awk -v k="$k" 'BEGIN { print 1 + 0.002 * k }')" "$w/base-$k.json"
      mkproc "$(awk -v k="$k" -v s="$shift" 'BEGIN { print s * (1 + 0.002 * k) }')" "$w/head-$k.json"
      args+=(--base "$w/base-$k.json" --head "$w/head-$k.json")
    done
    "$perf" compare "${args[@]}" --budgets "$budgets" >"$w/out" 2>&1 || true
    if [ "$case_" = unresolved_aa ]; then
      exec "$expect" --name "$name" --exit 0 --contains "bg-perf: synth/chain: inconclusive ratio" -- \
        bash -c 'cat "$0"; ! grep -qi unresolved "$0"' "$w/out"
    fi
    exec "$expect" --name "$name" --exit 0 --contains "bg-perf: UNRESOLVED SLOWDOWN: synth/chain ratio 1.1" \
      --contains "decide it: bg-perf ab --base-exe <base perf-bench> --head-exe <head perf-bench> --budgets $budgets --filter '^synth/chain\$' --rounds 6" \
      --check perf.compare.synth/chain --verdict inconclusive --observed "unresolved slowdown: synth/chain: inconclusive ratio 1.1" -- \
      bash -c 'BG_CHECKS_FILE="$BG_CHECKS_FILE" "$@" >"$0"; rc=$?; head -n 1 "$0"; exit $rc' "$w/out2" \
      "$perf" compare "${args[@]}" --budgets "$budgets" ;;
  unresolved_confirm)
    # Real processes, +25 % by the knob (clear even under this machine's
    # load), 2 rounds, one ordinary rerun (4 processes per side, still below
    # min_repetitions 5): the interval is wholly above the band, so the judge
    # confirms it with one more rerun (6 per side) and fails it.
    sed 's/"max_reruns": 2/"max_reruns": 1/' "$budgets" >"$w/budgets.json"
    exec "$expect" --name "$name" --exit 1 --contains "confirmation rerun 1/1" --contains "synth/chain: fail ratio" -- \
      "$perf" ab --base-exe "$bench" --head-exe "$bench" --head-env BG_PERF_SLOWDOWN_PCT=25 \
      --filter '^synth/chain$' --rounds 2 --reps 3 --min-time 0.03 --work-dir "$w" --budgets "$w/budgets.json" ;;
  truncated)
    good; head -c 700 "$w/good.json" >"$w/t.json"
    exec "$expect" --name "$name" --exit 4 --contains "buildgate: bg-perf: benchmark results:" -- \
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
    baseline_mutated '4,$d' "buildgate: bg-perf: baseline:" ;;
  baseline_schema_string)  # "schema": "1" is named as written (it said "schema -1")
    baseline_mutated 's/"schema":[[:space:]]*1/"schema": "1"/' 'schema "1" (a string, not a number), this bg-perf reads schema 1' ;;
  baseline_inf)  # a sample of 1e309 parses as infinity: not a positive finite number
    baseline_mutated '/"benchmarks"/,/}/s/\("synth\/chain":[^[]*\[\)[0-9.e+]*/\11e309/' "a sample is not a positive finite number" ;;
  baseline_processes)  # process sizes that do not add up to the samples: not read as one process
    baseline_mutated '/"processes"/,/}/s/\("synth\/chain":[^[]*\[\)[0-9]*/\12/' '"processes" is not a list of positive whole numbers adding up to its' ;;
  no_baseline)
    mkdir -p "$w/b"
    exec "$expect" --name "$name" --exit 77 --contains "no baseline for host $key" --contains 'ci/update-baselines --approve' -- \
      "$perf" baseline --baseline "$w/b" --exe "$bench" --budgets "$budgets" --work-dir "$w" ;;
  no_reason)
    good; mkdir -p "$w/b"
    "$perf" record --out "$w/b/$key.json" --from "$w/good.json" --reason first --budgets "$budgets" >/dev/null
    exec "$expect" --name "$name" --exit 2 --contains "a reason is required: --reason" --unchanged "$w/b/$key.json" -- \
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
  baseline_filtered|baseline_vanished)
    # a stored baseline holds every benchmark, a run only what --filter selects: the
    # others are out of scope (exit 0), but a baseline name the filter selects and
    # the head lacks (synth/chain renamed synth/old in the baseline) is vanished
    printf '{"schema": 1, "defaults": {"band": 0.9, "max_reruns": 0, "min_repetitions": 2}}\n' >"$w/budgets.json"
    "$bench" --benchmark_filter='^(synth/chain|bg_bench/overhead/c_batch/.*)$' --benchmark_repetitions=3 \
      --benchmark_min_time=0.01 --benchmark_out="$w/good.json" >/dev/null
    if [ "$case_" = baseline_vanished ]; then
      sed 's|"synth/chain"|"synth/old"|' "$w/good.json" >"$w/old.json" && mv "$w/old.json" "$w/good.json"
    fi
    mkdir -p "$w/b"
    "$perf" record --out "$w/b/$key.json" --from "$w/good.json" --reason selftest --budgets "$w/budgets.json" >/dev/null
    run=("$perf" baseline --baseline "$w/b" --exe "$bench" --rounds 2 --reps 1 --min-time 0.01
         --budgets "$w/budgets.json" --work-dir "$w")
    if [ "$case_" = baseline_vanished ]; then
      exec "$expect" --name "$name" --exit 1 --check .synth/old --verdict fail --observed "vanished: in the base, not in the head" \
        --check .synth/chain --verdict skip --observed "new, no reference" -- "${run[@]}" --filter '^synth/'
    fi
    # (a baseline of one process: inconclusive, whatever the timing)
    exec "$expect" --name "$name" --exit 0 --check .synth/chain --verdict inconclusive -- "${run[@]}" --filter '^synth/chain$' ;;
  duet_slowdown|duet_aa)
    # duet mode (bg-perf ab --duet, perf_paired.h): a real 25 % slowdown by the
    # knob must fail on the per-pair ratios; the A/A control must not fail
    pct=25; want=(--exit 1 --contains "synth/chain: fail ratio")
    [ "$case_" = duet_aa ] && pct=0 want=(--exit 0 --contains "synth/chain: ")
    exec "$expect" --name "$name" "${want[@]}" --contains "judged on per-pair ratios" -- \
      "$perf" ab --duet --base-exe "$bench" --head-exe "$bench" --head-env "BG_PERF_SLOWDOWN_PCT=$pct" \
      --filter '^synth/chain$' --reps 3 --min-time 0.03 --work-dir "$w" --budgets "$budgets" ;;
  duet_one_cpu)  # one CPU in the affinity mask: --duet-cpus 2 cannot place a pair, so a status
    # line, then interleaved (not paired); the default (one CPU per pair) runs its pairs there
    "$expect" --name "$name.default" --exit 0 --contains "on one CPU per pair (CPU 0 or 0" \
      --contains "judged on per-pair ratios" -- \
      taskset -c 0 "$perf" ab --duet --base-exe "$bench" --head-exe "$bench" --filter '^synth/chain$' \
      --rounds 2 --reps 1 --min-time 0.01 --work-dir "$w" --budgets "$budgets"
    exec "$expect" --name "$name" --exit 0 \
      --contains "bg-perf: duet: 1 CPU in the affinity mask (duet needs 2): interleaved instead" -- \
      taskset -c 0 "$perf" ab --duet --duet-cpus 2 --base-exe "$bench" --head-exe "$bench" --filter '^synth/chain$' \
      --rounds 2 --reps 1 --min-time 0.01 --work-dir "$w" --budgets "$budgets" ;;
  duet_same_cpu|duet_two_cpus)
    # Where a duet pair runs (docs/performance.md "Duet on one CPU"): every benchmark process
    # logs its affinity (a --prefix recorder); the two processes of each pair run at the same
    # time, so they log one after the other.  --duet-cpus 1 (the default): both on the same
    # single CPU; 2: each on its own (the pairs' two lines differ: this check's mutant).
    cpus=(); [ "$case_" = duet_two_cpus ] && cpus=(--duet-cpus 2)
    printf '#!/bin/sh\nf=$1; shift\ncase "$*" in *--benchmark_list_tests*) ;; *) grep Cpus_allowed_list /proc/self/status >>"$f" ;; esac\nexec "$@"\n' >"$w/cpu-log.sh"
    chmod +x "$w/cpu-log.sh"
    jq '.defaults.max_reruns = 0 | .defaults.seq_looks = 0' "$budgets" >"$w/budgets.json"
    "$perf" ab --duet ${cpus[@]+"${cpus[@]}"} --base-exe "$bench" --head-exe "$bench" --filter '^synth/chain$' \
      --rounds 6 --reps 1 --min-time 0.01 --work-dir "$w" --budgets "$w/budgets.json" \
      --prefix "$w/cpu-log.sh" --prefix "$w/cpus.txt" >"$w/out.txt" 2>&1 || [ $? = 1 ]
    # pairs: lines 2k-1 and 2k; want "same" (one CPU each, equal) or "own" (one CPU each, unequal)
    placement=same; [ "$case_" = duet_two_cpus ] && placement=own
    exec "$expect" --name "$name" --exit 0 --contains "12 processes, 6 pairs: every pair $placement" -- \
      awk -v want="$placement" '{ v = $2; if (v !~ /^[0-9]+$/) { print "not one CPU: " $0; bad = 1 }
        if (NR % 2 == 0) { k = (v == prev) ? "same" : "own"; if (k != want) { print "pair " NR / 2 ": " prev " and " v; bad = 1 } }
        prev = v } END { if (!bad && NR == 12) printf "%d processes, %d pairs: every pair %s\n", NR, NR / 2, want
        else if (NR != 12) print NR " processes logged, want 12" }' "$w/cpus.txt" ;;
  paired_shift|paired_aa)
    # Ten duet pairs of real samples, each pair disturbed alike (both sides
    # +4 % per pair index: what a duet cancels), the head 3 % slower in
    # paired_shift: the paired judge must fail it, the unpaired one cannot
    # (its process medians overlap); without the shift the paired judge passes.
    good; shift=1.03; [ "$case_" = paired_aa ] && shift=1
    mkpairs "$shift"
    if [ "$case_" = paired_aa ]; then
      exec "$expect" --name "$name" --exit 0 --contains "synth/chain: pass ratio" -- \
        "$perf" compare "${args[@]}" --budgets "$budgets" --paired
    fi
    "$expect" --name "$name.unpaired" --exit 0 --contains "synth/chain: inconclusive ratio" -- \
      "$perf" compare "${args[@]}" --budgets "$budgets"
    exec "$expect" --name "$name" --exit 1 --contains "synth/chain: fail ratio 1.03" --contains "pairs 10," -- \
      "$perf" compare "${args[@]}" --budgets "$budgets" --paired ;;
  paired_band)  # the paired judge's own band (budgets.json paired_band): paired_shift's pairs
    # (head 3 % slower) fail at synth's band 1 %; with paired_band 0.05 the paired judge holds them
    # to +-5.0 % and passes, while the unpaired judge of the same files keeps band 1 %
    good; mkpairs 1.03
    jq '.benchmarks["synth/"].paired_band = 0.05' "$budgets" >"$w/budgets.json"
    "$expect" --name "$name.unpaired" --exit 0 --contains "synth/chain: inconclusive ratio" --contains "band +-1.0%" -- \
      "$perf" compare "${args[@]}" --budgets "$w/budgets.json"
    exec "$expect" --name "$name" --exit 0 --contains "synth/chain: pass ratio 1.03" --contains "band +-5.0%" -- \
      "$perf" compare "${args[@]}" --budgets "$w/budgets.json" --paired ;;
  paired_7_pairs|paired_8_pairs)
    # The fewest pairs with which the exact signed-rank test can reach
    # p < alpha (0.01: 8, as 2^(1-n) < alpha; perf_paired_pairs_min): 7 pairs
    # of an A/A must be inconclusive saying so (it passed as if judged), 8
    # pairs of a +10 % shift must fail (every pair slower: p = 2/256).  Each
    # pair gets its own tiny offset, so no two |ln ratio| tie (the exact test).
    good; n=${case_%_pairs}; n=${n#paired_}; shift=1.10; [ "$n" = 7 ] && shift=1
    args=()
    for k in $(seq 0 $((n - 1))); do
      mkproc "$(awk -v k="$k" 'BEGIN { print 1 + 0.04 * k }')" "$w/base-$k.json"
      mkproc "$(awk -v k="$k" -v s="$shift" 'BEGIN { print s * (1 + 0.0005 * (k + 1)) * (1 + 0.04 * k) }')" "$w/head-$k.json"
      args+=(--base "$w/base-$k.json" --head "$w/head-$k.json")
    done
    if [ "$n" = 7 ]; then
      exec "$expect" --name "$name" --exit 0 --contains "(pairs 7, " --contains "sd of the pair log ratios 0." \
        --check perf.compare.synth/chain --verdict inconclusive \
        --observed "7 pairs: the exact signed-rank test needs at least 8 to reach p < 0.01" -- \
        "$perf" compare "${args[@]}" --budgets "$budgets" --paired
    fi
    exec "$expect" --name "$name" --exit 1 --check perf.compare.synth/chain --verdict fail --observed "p=0.0078" -- \
      "$perf" compare "${args[@]}" --budgets "$budgets" --paired ;;
  *) echo "buildgate: perf selftest: unknown case '$case_'" >&2; exit 2 ;;
esac
