/* perf_budget.h — budgets: how far a benchmark may move before it fails.
 *
 * File (suites/perf_budgets/budgets.json, schema 1):
 *   {"schema": 1,
 *    "defaults": {"band": 0.05, "alpha": 0.01, "min_repetitions": 5,
 *                 "metric": "real_time", "level": 0.95, "resamples": 2000,
 *                 "max_reruns": 2, "ir_band": 0.002, "cycles_band": 0.002, "ir_iterations": 20000,
 *                 "min_time": 0.05},
 *    "benchmarks": {"<name prefix>": {<any of the default keys>}, ...},
 *    "retired": {"<benchmark name>": "<reason>", ...}}
 * band: relative tolerance (0.05 = the median may move 5%); alpha: the
 * Benjamini-Hochberg false-discovery level; min_repetitions: fewer processes
 * (the independent repetitions, perf_gate.h) on either side is
 * `inconclusive`; min_time: seconds of work in one sample (Google Benchmark
 * --benchmark_min_time; bg-perf --min-time overrides it for every benchmark);
 * metric: see perf_samples.h; level: bootstrap
 * interval coverage; resamples: bootstrap resamples; max_reruns: how many
 * times `ab` reruns the inconclusive benchmarks; ir_band: the band of the
 * instruction-count mode (callgrind Ir per iteration, deterministic);
 * cycles_band: the band of that mode's second metric, estimated cycles per
 * iteration from its cache simulation (perf_callgrind.h; default 0.002);
 * ir_iterations: N of that mode, Ir per iteration = (Ir(N) - Ir(N/2)) / (N - N/2)
 * (bg-perf --iterations overrides it for every benchmark; RandomX: 2, one hash);
 * ir_min_iterations: the floor of that N for the benchmark (default 2000): below it the
 * N - N/2 iterations' cost does not dominate the process's fixed cost, which
 * varies by ~10^2..10^3 Ir from run to run (output formatting of measured
 * times, thread start-up): an A/A comparison gives false verdicts.  A smaller
 * --iterations is raised to it with one line; ir_iterations below it is an error.  "metric" is read from
 * "defaults" only (one metric per run; a per-benchmark one is an error).  For a benchmark the longest
 * matching name prefix wins, then the defaults, then the built-in values above.
 * A key segment that is exactly "*" matches any one segment of the name
 * (characters other than '/'), so the key randomx, two "*" segments, hash/
 * holds every RandomX version and build variant perf-bench names
 * (randomx/<version>/<variant>/hash/...; perf_name_match()).
 * higher_is_better (true/false, in "defaults" only, beside "metric"): the
 * metric's direction.  real_time and cpu_time are lower-is-better and
 * items_per_second and bytes_per_second higher-is-better without it (a
 * declaration that contradicts them is an error); any other metric is a
 * user counter, whose flags (kIsRate, kInvert) Google Benchmark's JSON does
 * not record and whose name proves nothing ("hashes" may be a rate): without
 * the declaration the file is refused (a guessed direction turns a 3x
 * slowdown into "improved").
 * seq_looks (default 3, 0..10), seq_max_pairs (60, 2..200), seq_time_cap (240 s, (0, 3600]):
 * the sequential pairs of a duet run (perf_paired.h), read from "defaults" like max_reruns.
 * "why" (a string, in a "benchmarks" entry): the reason for its bands, for
 * readers; the gate ignores it.
 * Any key other than these at the top level, in "defaults", in a "benchmarks" entry or in
 * "variant_table" is refused (a misspelling: `unknown key '<k>' in <where>`, exit 4).
 * retired: benchmarks (exact names) deliberately gone from the head: one in
 * the base only is then a skip quoting the reason instead of a "vanished"
 * fail (perf_gate.h); each needs a reason, a non-empty string.
 */
#ifndef PERF_BUDGET_H
#define PERF_BUDGET_H

#include <cjson/cJSON.h>

#include "buildgate/bg_error.h"

typedef struct perf_budget {
    double band, alpha, level, ir_band, min_time;
    int min_repetitions, resamples, max_reruns, ir_iterations;
    char metric[64];
    int lower_better; /* the metric's direction: perf_metric_known_direction or higher_is_better */
    double cycles_band; /* band of the callgrind mode's estimated cycles (perf_callgrind.h) */
    /* sequential pairs (duet only, perf_paired.h "Sequential pairs"): after the reruns, an undecided
       paired benchmark gets up to seq_looks more looks, adding pairs up to seq_max_pairs in all, while
       the looks so far took less than seq_time_cap seconds; each look judged at alpha / seq_looks and
       level 1 - (1 - level) / seq_looks.  seq_looks 0: off. */
    double seq_time_cap;
    int seq_max_pairs, seq_looks;
    int ir_min_iterations; /* the callgrind mode's floor of N (perf_callgrind.h; default 2000) */
    /* band of the paired (duet) judge (perf_paired.h): a pair's two processes share one CPU and
       one moment, so its ratio can be held to a narrower band than a judge across processes
       (interleaved, the stored baseline); -1 (the key absent): band */
    double paired_band;
} perf_budget;

/* Loads and validates a budgets file (path NULL: built-in defaults only).
 * BG_E_IO, BG_E_PARSE (bad JSON, schema != 1, a value out of range: band in
 * (0, 1), alpha in (0, 0.5], level in (0.5, 1), min_repetitions >= 2,
 * resamples >= 100, max_reruns in 0..10, cycles_band and paired_band in (0, 1), ir_iterations >= ir_min_iterations >= 2,
 * min_time in (0, 60]; "retired"
 * not an object, or a retirement without a reason; a metric of unknown direction without
 * "higher_is_better", or one that contradicts a known direction).  *out owned by the caller. */
bg_status perf_budgets_load(const char *path, cJSON **out);

/* How many characters of name the pattern covers when the pattern is a prefix
 * of it, a "*" segment of the pattern (between '/' or the ends) standing for
 * one non-empty segment of name (no '/'); -1 when it is not such a prefix.
 * The "benchmarks" keys (prefixes) and the "gates" entries (perf_gates.h)
 * match through it. */
long perf_name_match(const char *pattern, const char *name);

/* The budget of benchmark name (budgets may be NULL: built-ins). */
void perf_budget_for(const cJSON *budgets, const char *name, perf_budget *b);

/* The reason budgets.json gives for retiring the benchmark name, or NULL
 * (budgets may be NULL). */
const char *perf_budgets_retired(const cJSON *budgets, const char *name);

/* 1 when smaller values of metric are better (real_time, cpu_time), 0 when
 * larger are (items_per_second, bytes_per_second), -1 unknown: a user
 * counter, whose direction budgets.json must declare ("higher_is_better"). */
int perf_metric_known_direction(const char *metric);

/* The default metric of a budgets document. */
const char *perf_budgets_metric(const cJSON *budgets);

/* 1 when smaller values of that metric are better, 0 when larger are (a
 * loaded budgets document: its "higher_is_better", else the known direction). */
int perf_budgets_lower_better(const cJSON *budgets);

#endif
