/* perf_samples.h — per-benchmark samples read from Google Benchmark JSON.
 *
 * Input: the file --benchmark_out=FILE writes (format "json", Google
 * Benchmark 1.7 "docs/user_guide.md" Output Formats):
 *   {"context": {...}, "benchmarks": [{"name", "run_name", "run_type":
 *    "iteration"|"aggregate", "repetition_index", "threads", "iterations",
 *    "real_time", "cpu_time", "time_unit": "ns"|"us"|"ms"|"s",
 *    "items_per_second"?, <user counters>?, "error_occurred"?, "error_message"?}]}
 * Aggregate rows (mean/median/stddev/cv) are ignored: the gate computes its own
 * statistics from the repetitions.  One sample per iteration row; several files
 * (interleaved rounds) add up.
 *
 * Metric: "real_time" or "cpu_time" (converted to ns per iteration; lower is
 * better), or any other numeric field such as "items_per_second" (a field
 * ending in "_per_second" is higher-is-better).  Samples are stored as the
 * metric's value; perf_metric_lower_better() gives the direction.
 */
#ifndef PERF_SAMPLES_H
#define PERF_SAMPLES_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "buildgate/bg_error.h"

typedef struct perf_series {
    char *name;
    double *v;
    size_t n, cap;
} perf_series;

typedef struct perf_set {
    perf_series *s;
    size_t n, cap;
    cJSON *context; /* the first file's "context" (owned), or NULL */
} perf_set;

/* 1 when smaller values of metric are better (times), 0 for rates. */
int perf_metric_lower_better(const char *metric);

/* Adds the samples of one parsed Google Benchmark document.  Errors (one line
 * printed, naming what): BG_E_PARSE no "benchmarks" array, a row without the
 * metric, or no iteration rows at all ("zero repetitions"); BG_E_TARGET a row
 * with "error_occurred": true (message quoted); BG_E_NOMEM. */
bg_status perf_set_add_doc(perf_set *set, const cJSON *doc, const char *metric, const char *what);

/* perf_set_add_doc on the file at path (bg_json_load errors: BG_E_IO, BG_E_PARSE). */
bg_status perf_set_add_file(perf_set *set, const char *path, const char *metric);

/* Appends one sample to the series called name (created when new). */
bg_status perf_set_push(perf_set *set, const char *name, double v);

/* The series called name, or NULL. */
const perf_series *perf_set_find(const perf_set *set, const char *name);

void perf_set_free(perf_set *set);

#endif
