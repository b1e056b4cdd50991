/* perf_callgrind.h — instruction-count mode: callgrind Ir per iteration.
 *
 * For each benchmark (names from a native run of the head with
 * --bg_iterations=1), runs under
 *   valgrind --tool=callgrind --smc-check=all --cache-sim=yes --I1=.. --D1=.. --LL=..
 *            --callgrind-out-file=F <exe>
 *            --benchmark_filter=^name$ --bg_iterations=N   (and again with N/2)
 * (N: `iterations`, or when 0 the benchmark's budget ir_iterations; --smc-check=all
 * so that valgrind retranslates every rewrite of a JIT buffer: RandomX's JIT
 * under --smc-check=none runs stale code and gives another digest,
 * docs/performance.md "RandomX instruction counts")
 * (with the cache simulation, PERF_CG_CACHE_ARGS below) and reads the
 * "summary:" (or "totals:") line of F: Ir = instructions executed, and the
 * simulated cache misses of the estimated cycles (perf_cgfile.h).  Ir per iteration = (Ir(N) - Ir(N/2)) / (N - N/2): process start,
 * registration and Google Benchmark's per-run costs cancel.  Deterministic for
 * a deterministic kernel, so the decision needs no statistics:
 *   ratio = head/base; fail when ratio > 1 + ir_band, improved when
 *   ratio < 1 - ir_band, else pass (perf_budget.h, default ir_band 0.002);
 *   the same for estimated cycles against cycles_band (default 0.002).
 * No valgrind on PATH (and always on macOS, where valgrind does not run):
 * BG_E_UNSUPPORTED.
 * Sources: Valgrind user manual ch. 6 "Callgrind" and the callgrind format
 * specification ("summary:"/"totals:" lines).
 */
#ifndef PERF_CALLGRIND_H
#define PERF_CALLGRIND_H

#include <cjson/cJSON.h>

#include "perf_gate.h"
#include "perf_run.h"

/* The cache simulation: on, with a fixed geometry (not the host's, which
 * valgrind would read from CPUID), so that the estimated cycles of a build
 * are the same on every x86-64 host: I1 and D1 32 KiB 8-way, LL 8 MiB
 * 16-way, 64-byte lines.  The RandomX scratchpad (2 MiB) fits LL, its light-mode
 * cache (256 MiB) does not. */
#define PERF_CG_CACHE_ARGS "--cache-sim=yes", "--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64"
/* How many functions the per-function difference lists (self, inclusive), and
 * at most how many stacks of its differential flame graph. */
#define PERF_CG_TOP 10
#define PERF_CG_MAX_STACKS 300

/* Measures and judges every benchmark matching filter; *out (caller frees
 * with perf_results_free) has two results per benchmark, in this order:
 * metric "instructions" (Ir per iteration, band ir_band, check
 * perf.callgrind.<name>) and metric "estimated_cycles" (perf_cgfile.h's
 * formula per iteration, band cycles_band, check perf.callgrind_cycles.<name>);
 * n = 1, lo = hi = ratio, p = q = NaN.  A result that fails carries
 * extra.function_diff (perf_cgfile.h): which function got slower.
 * cache_sim 0 (bg-perf --ir-only): no cache simulation, one result per
 * benchmark (Ir).  BG_E_UNSUPPORTED when valgrind is not installed (one
 * line, the caller turns it into a skip); BG_E_TARGET a run failed; BG_E_PARSE
 * no summary line. */
bg_status perf_callgrind_compare(const perf_cmd *base, const perf_cmd *head, const char *filter,
                                 long long iterations, int cache_sim, const char *work_dir, const cJSON *budgets,
                                 perf_result **out, size_t *n_out, perf_set *names);

#endif
