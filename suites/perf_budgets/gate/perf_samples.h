/* perf_samples.h — per-benchmark samples read from Google Benchmark JSON.
 *
 * Input: the file --benchmark_out=FILE writes (format "json"), as Google
 * Benchmark's src/json_reporter.cc writes it in 1.7.1, 1.8.3 and 1.9.1 (the
 * fields are the same in the three):
 *   {"context": {...}, "benchmarks": [{"name", "family_index",
 *    "per_family_instance_index", "run_name", "run_type":
 *    "iteration"|"aggregate", "repetitions", "repetition_index" (iteration
 *    rows only), "threads", "aggregate_name", "aggregate_unit" (aggregate rows
 *    only), "error_occurred" + "error_message" (SkipWithError), "skipped" +
 *    "skip_message" (SkipWithMessage, 1.8+), "iterations", "real_time",
 *    "cpu_time", "time_unit": "ns"|"us"|"ms"|"s", <counters, e.g.
 *    "items_per_second">?, "label"?}]}
 * The text is read with perf_gbjson_load: the bare NaN / Infinity tokens the
 * reporter writes for non-finite doubles are accepted (perf_gbjson.h).
 * A benchmark is named by "run_name" (without the aggregate suffix; threads
 * and named arguments are part of it: "BM/batch:64/threads:2"), else "name".
 * Aggregate rows (mean/median/stddev/cv, BigO/RMS) are ignored when the
 * benchmark has iteration rows in the document: the gate computes its own
 * statistics from the repetitions.  One sample per iteration row; several
 * files (interleaved rounds) add up.
 *
 * Aggregate-only benchmarks: a benchmark with ReportAggregatesOnly(true) (or
 * the whole program run with --benchmark_report_aggregates_only) writes no
 * iteration row to the file, only its aggregates ("run_type": "aggregate";
 * Google Benchmark computes them when at least 2 repetitions ran, else it
 * writes the iteration row, which is read as above).  Its sample for that
 * document (process) is then the row with "aggregate_name": "median" and
 * "aggregate_unit": "time" (its times and counters are the medians over the
 * process's "repetitions"): exactly the process median the gate would compute
 * from the iteration rows, so the process-level judgement (perf_gate.h) is
 * the same.  Its limits: one sample a process, so the within-process spread
 * is unknown (its sd says "n/a (median aggregate only)") and the bootstrap resamples
 * processes only; a one-process comparison cannot be decided; --drop-warmup
 * cannot drop the first repetition (the median of >= 3 repetitions is
 * robust to it); the time per repetition (rep_s) stays unknown (an
 * aggregate's "iterations" is its repetition count).  The mean, stddev and
 * cv rows are not used.  series.agg_procs counts such processes.
 *
 * Per benchmark, not for the whole file (the other benchmarks are still read):
 *   "skipped": true      -> series.skipped = its skip_message (a skip check);
 *   "error_occurred": true -> series.error = "reported an error: <message>",
 *                           series.reported = 1, set.errors++ (exit 7);
 *   the metric missing, not finite (NaN, +-Infinity) or not positive ->
 *                           series.error naming the field and the value
 *                           (a fail check).
 * The first such reason of a series is kept (an error_occurred one replaces
 * a metric one).
 *
 * Metric: "real_time" or "cpu_time" (converted to ns per iteration; lower is
 * better), or any other numeric field of the row: "items_per_second" and
 * "bytes_per_second" (SetItemsProcessed / SetBytesProcessed: rates, higher is
 * better), or a user counter.  A counter's flags (kIsRate, kInvert, ...) are
 * not in the JSON and its name says nothing reliable, so the direction of
 * any other metric is declared in budgets.json (perf_budget.h
 * "higher_is_better").  Samples are stored as the metric's value;
 * perf_metric_known_direction() (perf_budget.h) gives the known ones' direction.
 *
 * Processes: one document is one process of the benchmark program, and the
 * samples a process gives are not independent of each other (its own memory
 * layout, cache, JIT buffers: docs/perf_budgets.md "The unit of
 * replication").  Each series therefore keeps its samples process by process
 * (off, ng: the bg_grouped shape of bg_stats.h); the gate judges on the
 * processes.
 */
#ifndef PERF_SAMPLES_H
#define PERF_SAMPLES_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "buildgate/bg_error.h"
#include "buildgate/bg_stats.h"

typedef struct perf_series {
    char *name;
    double *v;
    size_t n, cap;
    size_t *off;        /* ng + 1 offsets: process k gave v[off[k]] .. v[off[k+1]-1] */
    size_t ng, ocap;
    unsigned long proc; /* the process (perf_set.procs value) of the last sample */
    double rep_s;       /* seconds one repetition takes (iterations x real_time, mean), 0 unknown */
    size_t rep_n;       /* repetitions rep_s is the mean of */
    double setup_s;     /* seconds a process spends outside its repetitions (bg-perf ab), 0 unknown */
    char *skipped;      /* the benchmark skipped itself: its skip_message (owned), else NULL */
    char *error;        /* why it cannot be judged (owned), else NULL */
    int reported;       /* the error is Google Benchmark's error_occurred */
    size_t docs;        /* documents (processes) that have a row of it */
    unsigned long doc;  /* the last such document (perf_set.docs value) */
    size_t want_docs;   /* processes that should have a row of it (perf_set_expect) */
    size_t agg_procs;   /* processes whose sample is their median aggregate (aggregate-only) */
    size_t agg_reps;    /* the most "repetitions" such a median is of */
} perf_series;

typedef struct perf_set {
    perf_series *s;
    size_t n, cap;
    unsigned long procs; /* processes (documents, single pushes) added so far */
    cJSON *context;      /* the first file's "context" (owned), or NULL */
    size_t errors;       /* rows with "error_occurred": true */
    unsigned long docs;  /* documents added by perf_set_add_doc */
    int expect;          /* 1: perf_set_expect says which processes should have which series */
} perf_set;

/* Process coverage: a benchmark must have rows in every process of its side,
 * else its process medians would come from the few processes that ran it.
 * By default every document of the set should hold every series (bg-perf
 * compare: each file is one process of the whole program).  A caller that
 * runs processes on subsets of the benchmarks (bg-perf ab: one process per
 * min_time class) says, after each document, which series it should hold
 * with perf_set_expect (the series is created when the process lacked it).
 * BG_E_NOMEM. */
bg_status perf_set_expect(perf_set *set, const char *name);

/* The processes s should have rows in (0: unknown, e.g. a stored baseline). */
size_t perf_series_want(const perf_set *set, const perf_series *s);

/* Adds the samples of one parsed Google Benchmark document.  Errors (one line
 * printed, naming what): BG_E_PARSE no "benchmarks" array, a row without a
 * name, an unknown time_unit, or no iteration rows at all ("zero
 * repetitions"); BG_E_NOMEM.  A skipped or erroring benchmark, or one whose
 * metric is unusable, is no error here: it is marked in its series (above). */
bg_status perf_set_add_doc(perf_set *set, const cJSON *doc, const char *metric, const char *what);

/* perf_set_add_doc on the file at path (perf_gbjson_load errors: BG_E_IO, BG_E_PARSE). */
bg_status perf_set_add_file(perf_set *set, const char *path, const char *metric);

/* perf_set_add_file without each benchmark's first repetition (the
 * iteration row with "repetition_index" 0 when "repetitions" > 1): the
 * --drop-warmup noise control of bg-perf ab. */
bg_status perf_set_add_file_after_warmup(perf_set *set, const char *path, const char *metric);

/* Appends one sample to the series called name (created when new) as a
 * process of its own (samples without a known process, e.g. an old baseline). */
bg_status perf_set_push(perf_set *set, const char *name, double v);

/* Appends one sample of process proc (a value from perf_set_new_proc) to the
 * series called name: a new process of the series when proc differs from
 * its last sample's. */
bg_status perf_set_push_proc(perf_set *set, const char *name, double v, unsigned long proc);

/* A fresh process number for perf_set_push_proc. */
unsigned long perf_set_new_proc(perf_set *set);

/* Makes every sample of every series a process of its own: the sample-level
 * judge this gate used before processes were the unit (bg-perf compare
 * --unit sample, for comparison and the self-tests only). */
void perf_set_flatten(perf_set *set);

/* Drops the series whose name Google Benchmark's --benchmark_filter=filter
 * would not select (a POSIX extended regex searched in the name; a leading
 * '-' negates; NULL, "", "." and "all" select all): a stored baseline holds
 * every benchmark, a filtered run only some, and the others are not gone.
 * A filter that does not compile keeps everything. */
void perf_set_keep_matching(perf_set *set, const char *filter);

/* The series as processes of samples (bg_stats.h); valid until the next push. */
bg_grouped perf_series_grouped(const perf_series *s);

/* The first series with an error (error_occurred first when any), or NULL. */
const perf_series *perf_set_first_error(const perf_set *set);

/* The series called name, or NULL. */
const perf_series *perf_set_find(const perf_set *set, const char *name);

void perf_set_free(perf_set *set);

#endif
