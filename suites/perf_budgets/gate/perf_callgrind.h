/* perf_callgrind.h — instruction-count mode: callgrind Ir per iteration.
 *
 * For each benchmark (names from a native run of the head with
 * --bg_iterations=1), runs under
 *   valgrind --tool=callgrind --smc-check=all --callgrind-out-file=F <exe>
 *            --benchmark_filter=^name$ --bg_iterations=N   (and again with N/2)
 * (N: `iterations`, or when 0 the benchmark's budget ir_iterations; --smc-check=all
 * so that valgrind retranslates every rewrite of a JIT buffer: RandomX's JIT
 * under --smc-check=none runs stale code and gives another digest,
 * docs/performance.md "RandomX instruction counts")
 * and reads the "summary:" (or "totals:") line of F: Ir = instructions
 * executed.  Ir per iteration = (Ir(N) - Ir(N/2)) / (N - N/2): process start,
 * registration and Google Benchmark's per-run costs cancel.  Deterministic for
 * a deterministic kernel, so the decision needs no statistics:
 *   ratio = head/base; fail when ratio > 1 + ir_band, improved when
 *   ratio < 1 - ir_band, else pass (perf_budget.h, default ir_band 0.002).
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

/* Measures and judges every benchmark matching filter; *out (caller frees)
 * has one result per benchmark (metric "instructions", n = 1, lo = hi =
 * ratio, p = q = NaN).  BG_E_UNSUPPORTED when valgrind is not installed (one
 * line, the caller turns it into a skip); BG_E_TARGET a run failed; BG_E_PARSE
 * no summary line. */
bg_status perf_callgrind_compare(const perf_cmd *base, const perf_cmd *head, const char *filter,
                                 long long iterations, const char *work_dir, const cJSON *budgets,
                                 perf_result **out, size_t *n_out, perf_set *names);

#endif
