/* perf_baseline.h — per-host baselines: baselines/<host-key>.json.
 *
 * Schema 1 (docs/perf_budgets.md):
 *   {"schema": 1, "host": "<host key>", "metric": "real_time",
 *    "provenance": {"commit", "compiler", "flags", "build_type", "date",
 *                   "reason", "command", "benchmark_context": {...}},
 *    "benchmarks": {"<name>": [sample, ...]},
 *    "processes": {"<name>": [samples of process 1, of process 2, ...]},
 *    "history": [{"date", "commit", "reason", "medians": {"<name>": m}}]}
 * history keeps the last PERF_BASELINE_HISTORY approvals, newest first.
 * "processes" (optional) says how the samples, in order, split into the
 * processes that gave them (the gate's unit of replication, perf_gate.h); a
 * baseline without it, or whose sizes do not add up to the samples, is read
 * as one process per sample (the judge then treats them as independent).
 */
#ifndef PERF_BASELINE_H
#define PERF_BASELINE_H

#include <cjson/cJSON.h>

#include "buildgate/bg_error.h"
#include "perf_samples.h"

#define PERF_BASELINE_SCHEMA 1
#define PERF_BASELINE_HISTORY 20

/* Loads a baseline and checks it: BG_E_IO (missing: the caller turns that into
 * a skip), BG_E_PARSE, BG_E_FIXTURE (schema != 1, "host" != host_key, metric
 * != metric, no samples).  Fills set with the stored samples. */
bg_status perf_baseline_load(const char *path, const char *host_key, const char *metric,
                             perf_set *set);

typedef struct perf_record_opts {
    const char *out, *host_key, *reason, *commit, *flags, *build_type, *command, *metric;
    int force;
} perf_record_opts;

/* Writes a baseline from the samples in set (the run's context in
 * set->context) atomically, keeping the history of the file it replaces and
 * printing each benchmark's old -> new median.  Refuses (BG_E_USAGE, nothing
 * written): an empty reason; build_type Debug or a Google Benchmark context
 * with "cpu_scaling_enabled": true, unless force (a Google Benchmark library
 * that reports "library_build_type": "debug", as Debian 12's does, is only
 * noted: the context is stored in the provenance); an existing file of another host or schema (BG_E_FIXTURE). */
bg_status perf_baseline_record(const perf_record_opts *o, const perf_set *set);

/* The baseline a record would replace, checked before any benchmark runs by
 * the gate's own loader (perf_baseline_load: schema, host, metric, every
 * sample a positive number): BG_OK when path is absent or a valid baseline of
 * host_key in metric; else BG_E_PARSE (not JSON) / BG_E_FIXTURE with one line. */
bg_status perf_baseline_check(const char *path, const char *host_key, const char *metric);

#endif
