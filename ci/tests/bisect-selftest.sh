#!/usr/bin/env bash
# ci/tests/bisect-selftest.sh CASE BG_CHECK [BG_PERF] — ci/bisect on a throwaway
# history built here in a temporary directory (CTest ci.selftest.bisect_<CASE>):
#   slowdown  a tiny Google Benchmark project, 6 commits; commit 4 doubles the
#             loop's work (a committed constant): bisect by `bg-perf ab` on
#             BM_loop must name exactly commit 4, with ratio and interval
#   digest    a tiny C project whose test compares a computed FNV-1a digest
#             with a fixture, 6 commits; commit 3 breaks the build (fixed by
#             commit 4; git bisect tests it first: skipped), commit 5 plants a wrong digest:
#             bisect by `ctest -R` must name exactly commit 4, with
#             expected/observed; the failing check is read from a results.json
#   clean     the digest history up to the commit before the planted one:
#             bisect must name none (exit 1, status not_reproduced)
#   misspelt  the slowdown history bisected for perf.ab.BM_nope, a benchmark
#             the toy does not have: no culprit (exit 1, bad_end_unjudged), and
#             the summary says no benchmark of that name (it said "build
#             failed, or perf stayed inconclusive", neither of which happened)
#   chase     a tiny Google Benchmark project whose benchmark chases 2000
#             dependent loads per iteration through a random cycle, 6 commits;
#             commit 4 widens the cycle from 16 KiB (fits D1) to 16 MiB
#             (beyond LL): a memory-latency step with the same instructions per
#             iteration.  Bisected as `bg-perf-history changes` hands it
#             (--checks perf.callgrind_cycles.BM_chase): must name exactly
#             commit 4 by its estimated cycles (Ir ratio 1, cycles ratio > 2).
#             Needs valgrind (skip, exit 77, without).
# Records the check ci.selftest.bisect_<CASE> (expected: the planted commit,
# observed: the one named) and prints ci/bisect's summary.
set -uo pipefail
case_=${1:?case} bg_check=${2:?bg-check} bg_perf=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bg-bisect-test.XXXXXX") || exit 3
trap '[ -n "${BISECT_TEST_KEEP:-}" ] || rm -rf "$tmp"' EXIT
repo=$tmp/repo
git init -q -b main "$repo" || exit 3
export GIT_AUTHOR_NAME=bisect-test GIT_AUTHOR_EMAIL=bisect@test GIT_COMMITTER_NAME=bisect-test GIT_COMMITTER_EMAIL=bisect@test
# commit MESSAGE FILE CONTENT...: writes the files and commits them.
commit() {
  local msg=$1; shift
  while [ $# -ge 2 ]; do printf '%s\n' "$2" >"$repo/$1"; git -C "$repo" add "$1"; shift 2; done
  git -C "$repo" commit -q -m "$msg" && git -C "$repo" rev-parse HEAD
}
args=()
case "$case_" in
  slowdown|misspelt)
    [ -x "$bg_perf" ] || { echo "buildgate: bisect-selftest: $case_ needs bg-perf" >&2; exit 2; }
    good=$(commit "toy: a benchmark of a dependent multiply-add loop" \
      CMakeLists.txt 'cmake_minimum_required(VERSION 3.16)
project(toy CXX)
find_package(benchmark REQUIRED)
add_executable(toy-bench bench.cc)
target_link_libraries(toy-bench benchmark::benchmark benchmark::benchmark_main)' \
      work.h '#define TOY_WORK 4000' \
      bench.cc '#include <benchmark/benchmark.h>
#include "work.h"
static void BM_loop(benchmark::State &s) {
  for (auto _ : s) {
    unsigned x = 1;
    for (int i = 0; i < TOY_WORK; i++) { x = x * 2654435761u + (unsigned)i; benchmark::DoNotOptimize(x); }
  }
}
BENCHMARK(BM_loop);')
    commit "docs: a README" README 'toy benchmark' >/dev/null
    commit "bench: say what the loop measures" README 'toy benchmark: a multiply-add chain' >/dev/null
    planted=$(commit "work: twice the work per iteration (the planted slowdown)" work.h '#define TOY_WORK 8000')
    commit "docs: README line two" README 'toy benchmark: a multiply-add chain
(two lines)' >/dev/null
    commit "docs: README line three" README 'toy benchmark: a multiply-add chain
(three lines)' >/dev/null
    # The toy's band is 30 % (the planted slowdown is 100 %): on a loaded shared
    # machine an A/A interval of the toy spans +-15 %, which a 5 % band would
    # leave inconclusive (skipped commits).
    printf '%s\n' '{"schema": 1, "defaults": {"band": 0.30, "alpha": 0.01, "min_repetitions": 5,' \
      '"metric": "cpu_time", "level": 0.95, "resamples": 2000, "max_reruns": 2}, "benchmarks": {}}' >"$tmp/budgets.json"
    args=(--checks perf.ab.BM_loop --perf-target toy-bench --perf-exe toy-bench --bg-perf "$bg_perf"
          --budgets "$tmp/budgets.json"
          --rounds 5 --reps 2 --min-time 0.02)
    [ "$case_" = misspelt ] && args[1]=perf.ab.BM_nope ;;
  chase)
    [ -x "$bg_perf" ] || { echo "buildgate: bisect-selftest: chase needs bg-perf" >&2; exit 2; }
    command -v valgrind >/dev/null || {
      "$bg_check" --suite ci --name ci.selftest.bisect_chase --verdict skip --observed "valgrind not installed"; exit 77; }
    # Its own main: bg-perf callgrind passes --bg_iterations=N (the fixed
    # iteration count that lib/src/bg_bench.cc gives perf-bench).
    good=$(commit "toy: a benchmark of dependent loads through a random cycle" \
      CMakeLists.txt 'cmake_minimum_required(VERSION 3.16)
project(toy CXX)
find_package(benchmark REQUIRED)
add_executable(toy-bench bench.cc)
target_link_libraries(toy-bench benchmark::benchmark)' \
      span.h '#define TOY_SPAN_LINES 256 /* 16 KiB: fits D1 */' \
      bench.cc '#include <benchmark/benchmark.h>
#include <cstdlib>
#include <cstring>
#include <vector>
#include "span.h"
#define TOY_LINES (1u << 18) /* 16 MiB of 64-byte lines (twice LL), allocated on every commit */
static void BM_chase(benchmark::State &s) {
  std::vector<unsigned long long> perm(TOY_SPAN_LINES), line(TOY_LINES * 8ull);
  unsigned long long x = 88172645463325252ull;
  for (unsigned i = 0; i < TOY_SPAN_LINES; i++) perm[i] = i;
  for (unsigned i = TOY_SPAN_LINES - 1; i > 0; i--) { /* Sattolo: one cycle */
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    unsigned long long j = x % i, t = perm[i]; perm[i] = perm[j]; perm[j] = t;
  }
  for (unsigned i = 0; i < TOY_SPAN_LINES; i++) line[perm[i] * 8] = perm[(i + 1) % TOY_SPAN_LINES] * 8;
  unsigned long long at = 0;
  for (auto _ : s) {
    for (int k = 0; k < 2000; k++) at = line[at];
    benchmark::DoNotOptimize(at);
  }
}
int main(int argc, char **argv) {
  long long iters = 0;
  int n = 0;
  for (int i = 0; i < argc; i++) {
    if (i > 0 && std::strncmp(argv[i], "--bg_iterations=", 16) == 0) iters = std::atoll(argv[i] + 16);
    else argv[n++] = argv[i];
  }
  argc = n;
  auto *b = benchmark::RegisterBenchmark("BM_chase", BM_chase);
  if (iters > 0) b->Iterations(iters);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}')
    commit "docs: a README" README 'toy chase' >/dev/null
    commit "bench: say what the chase measures" README 'toy chase: dependent loads' >/dev/null
    planted=$(commit "span: a 16 MiB cycle (the planted memory-latency step: no instruction added)" \
      span.h '#define TOY_SPAN_LINES (1u << 18) /* 16 MiB: twice LL */')
    commit "docs: README line two" README 'toy chase: dependent loads
(two lines)' >/dev/null
    commit "docs: README line three" README 'toy chase: dependent loads
(three lines)' >/dev/null
    printf '%s\n' '{"schema": 1, "defaults": {"band": 0.05, "alpha": 0.01, "min_repetitions": 5,' \
      '"metric": "cpu_time", "level": 0.95, "resamples": 2000, "max_reruns": 2, "ir_iterations": 1000, "ir_min_iterations": 1000}, "benchmarks": {}}' >"$tmp/budgets.json"
    args=(--checks perf.callgrind_cycles.BM_chase --perf-target toy-bench --perf-exe toy-bench
          --bg-perf "$bg_perf" --budgets "$tmp/budgets.json") ;;
  digest|clean)
    good=$(commit "toy: FNV-1a digest of a fixed input, checked against a fixture" \
      CMakeLists.txt 'cmake_minimum_required(VERSION 3.16)
project(toy C)
enable_testing()
add_executable(digest digest.c)
add_test(NAME toy.digest COMMAND digest ${CMAKE_SOURCE_DIR}/expected.txt)' \
      expected.txt '0xa430d84680aabd0b' \
      prime.h '#define FNV_PRIME 0x100000001b3ULL' \
      digest.c '#include <stdio.h>
#include <string.h>
#include "prime.h"
int main(int argc, char **argv) {
  const char *in = "hello";
  unsigned long long h = 0xcbf29ce484222325ULL, want = 0;
  for (size_t i = 0; i < strlen(in); i++) { h ^= (unsigned char)in[i]; h *= FNV_PRIME; }
  FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
  if (!f || fscanf(f, "%llx", &want) != 1) { fprintf(stderr, "cannot read the fixture\n"); return 2; }
  if (h != want) { printf("digest mismatch: expected 0x%016llx observed 0x%016llx\n", want, h); return 1; }
  printf("digest 0x%016llx matches\n", h);
  return 0;
}')
    commit "docs: a README" README 'toy digest' >/dev/null
    typo=$(commit "build: a typo (does not compile)" prime.h '#define FNV_PRIME 0x100000001b3ULL +')
    commit "build: the typo fixed" prime.h '#define FNV_PRIME 0x100000001b3ULL' >/dev/null
    planted=$(commit "prime: a wrong FNV prime (the planted wrong digest)" prime.h '#define FNV_PRIME 0x100000001b5ULL')
    commit "docs: README line two" README 'toy digest
(two lines)' >/dev/null
    # The failing check as bg-report writes it (the check named after its test).
    jq -n '{schema: 1, checks: [
      {suite: "toy", name: "toy.other", test: "toy.other", verdict: "pass", expected: 1, observed: 1, details: null},
      {suite: "toy", name: "toy.digest.value", test: "toy.digest", verdict: "fail",
       expected: "0xa430d84680aabd0b", observed: "0xcb643b3d3b697fb7", details: null}]}' >"$tmp/results.json"
    args=(--from-results "$tmp/results.json")
    # clean: the bad end is the commit before the planted one: nothing to name
    [ "$case_" = clean ] && args+=(--bad "$planted~1") ;;
  *) echo "buildgate: bisect-selftest: unknown case '$case_' (slowdown, misspelt, chase, digest, clean)" >&2; exit 2 ;;
esac
[ -n "$good" ] && [ -n "$planted" ] || { echo "buildgate: bisect-selftest: git commit failed" >&2; exit 3; }
(cd "$repo" && "$here/../bisect" --good "$good" --time-limit 5 --out "$tmp/out" "${args[@]}") | tee "$tmp/log"
rc=${PIPESTATUS[0]}
named=$(jq -r '.bisect.first_bad.commit // "none"' "$tmp/out/bisect.json" 2>/dev/null || echo "none (no bisect.json)")
# The evidence of the planted commit: a perf fail with a ratio, or the digest's expected/observed.
if [ "$case_" = misspelt ]; then
  status=$(jq -r '.bisect.status' "$tmp/out/bisect.json" 2>/dev/null)
  said=$(grep -c "could not be judged (no benchmark named BM_nope in this commit's perf-bench" "$tmp/log")
  "$bg_check" --suite ci --name "ci.selftest.bisect_misspelt" --expect-equal \
    "exit 1, first bad none, status bad_end_unjudged, said no benchmark named BM_nope: 1" \
    "exit $rc, first bad $named, status ${status:-none}, said no benchmark named BM_nope: $said"
  exit
elif [ "$case_" = clean ]; then
  status=$(jq -r '.bisect.status' "$tmp/out/bisect.json" 2>/dev/null)
  "$bg_check" --suite ci --name "ci.selftest.bisect_clean" --expect-equal "exit 1, first bad none, status not_reproduced" \
    "exit $rc, first bad $named, status ${status:-none}"
  exit
elif [ "$case_" = slowdown ]; then
  ev=$(jq -r --arg c "$planted" '.bisect.tested[] | select(.commit == $c) | .evidence[]
        | select(.result == "bad" and .ratio > 1.5 and .interval[0] > 1.01) | "ratio \(.ratio)"' "$tmp/out/bisect.json" 2>/dev/null)
elif [ "$case_" = chase ]; then
  # bad by its estimated cycles, with its instructions unchanged (the Ir judge alone passes it)
  ev=$(jq -r --arg c "$planted" '.bisect.tested[] | select(.commit == $c) | .evidence[]
        | select(.result == "bad" and .benchmark == "perf.callgrind_cycles.BM_chase" and .ratio > 2)
        | select(any(.metrics[]; .check == "perf.callgrind.BM_chase" and .verdict == "pass" and .ratio > 0.999 and .ratio < 1.001))
        | "estimated cycles fail, instructions pass"' "$tmp/out/bisect.json" 2>/dev/null)
else
  ev=$(jq -r --arg c "$planted" '.bisect.tested[] | select(.commit == $c) | .evidence[]
        | select(.result == "bad" and (.observed | test("expected 0xa430d84680aabd0b observed"))) | .observed' "$tmp/out/bisect.json" 2>/dev/null)
  # git bisect's first pick in this history is the commit that does not build: skipped
  skipped=$(jq -r --arg c "$typo" '.bisect.tested[] | select(.commit == $c and .result == "skip") | "skip"' "$tmp/out/bisect.json" 2>/dev/null)
  [ "$skipped" = skip ] || ev="$ev (the commit that does not build was not skipped)"
fi
observed="exit $rc, first bad $named${ev:+, evidence: }${ev:-, no evidence of the planted commit}"
"$bg_check" --suite ci --name "ci.selftest.bisect_$case_" --expect-equal "exit 0, first bad $planted, evidence: ${ev:-?}" "$observed"
