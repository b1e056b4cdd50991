/* perf_run.h — running a Google Benchmark program and collecting its JSON.
 *
 * perf_run_bench runs
 *   <prefix...> <exe> --benchmark_out=<out> --benchmark_out_format=json
 *       --benchmark_repetitions=<reps> --benchmark_min_time=<min_time>
 *       [--benchmark_filter=<filter>] <args...>
 * with env (NULL-terminated "K=V" strings) added to the environment, its
 * stdout/stderr appended to <out>.log, and waits.  A `prefix` lets a runner
 * (valgrind ..., qemu-x86_64) wrap the program.
 * Errors (one line printed): BG_E_IO cannot start; BG_E_TARGET killed by a
 * signal or exited non-zero (the log is named).  Exit 7 from bg_bench_main
 * (a benchmark reported an error) returns PERF_RUN_BENCH_ERROR without a
 * line: the caller loads <out>, whose error row names the benchmark
 * (perf_samples.h).
 */
#ifndef PERF_RUN_H
#define PERF_RUN_H

#include "buildgate/bg_error.h"
#include "perf_samples.h"

typedef struct perf_cmd {
    const char *exe;
    const char *const *prefix; /* NULL or NULL-terminated */
    const char *const *env;    /* NULL or NULL-terminated "K=V" */
    const char *const *args;   /* NULL or NULL-terminated: extra arguments after exe */
} perf_cmd;

/* Returns 0, PERF_RUN_BENCH_ERROR (exit 7, silent), or a negative bg_status. */
#define PERF_RUN_BENCH_ERROR 1
int perf_run_bench(const perf_cmd *cmd, const char *filter, int reps, double min_time,
                   const char *out);

/* After perf_run_bench returned BG_OK for a run that should have measured:
 * BG_E_TARGET (one line) when `out` is missing (not a Google Benchmark
 * program), BG_E_USAGE when it is empty (no benchmark matches `filter`). */
bg_status perf_run_check_output(const perf_cmd *cmd, const char *filter, const char *out);

/* The names of cmd's benchmarks that match filter (--benchmark_list_tests,
 * one per line of <work_dir>/<tag>-names.json.log), pushed into names as
 * series of one sample each.  BG_E_TARGET when listing fails, BG_E_USAGE
 * when nothing matches (one line naming `what`), perf_run_bench's errors. */
bg_status perf_run_list(const perf_cmd *cmd, const char *filter, const char *work_dir,
                        const char *what, perf_set *names);

#endif
