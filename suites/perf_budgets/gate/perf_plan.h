/* perf_plan.h — what bg-perf ab / baseline / calibrate run: processes,
 * repetitions, per-benchmark min_time, the order of base and head, and the
 * per-process layout randomisation (docs/perf_budgets.md, "The unit of
 * replication").
 *
 * The benchmarks are listed once (--benchmark_list_tests) and grouped into
 * classes of equal min_time (budget field "min_time", or --min-time for all)
 * and threadedness (perf_plan_threaded): one process per class, side and
 * round, filtered to exactly its names.
 *
 * Rounds (processes per side): --rounds, or by default the fewest for which
 * the per-process Mann-Whitney U test can reach q < alpha after Benjamini-
 * Hochberg over the listed benchmarks with one pair out of order
 * (bg_mann_whitney_rounds_for, smallest alpha of the budgets), at least 5.
 * Repetitions per process: --reps, or by default PERF_PLAN_REPS0 for the first
 * rounds (enough to estimate the within-process variance); a rerun of the
 * inconclusive benchmarks uses the Kalibera-Jones repetitions measured on
 * the rounds so far (perf_result.reps_advice: few when the variance lies
 * between processes, more when within) and as many rounds as fit in the time
 * the first rounds took (at most 3x their count).
 * Order and layout: each round runs base and head in a random order (AB or
 * BA, seeded), each process with a random environment padding (BG_PERF_PAD,
 * 0..PERF_PLAN_PAD_MAX bytes, which moves the initial stack), and address-
 * space layout randomisation is left as the kernel has it (Linux default
 * randomize_va_space = 2: stack, mmap, heap, PIE and vDSO bases differ per
 * process; `setarch -R` would freeze one layout for every process).
 */
#ifndef PERF_PLAN_H
#define PERF_PLAN_H

#include <stdint.h>

#include <cjson/cJSON.h>

#include "buildgate/bg_stats.h"
#include "perf_gate.h"
#include "perf_run.h"
#include "perf_samples.h"

#define PERF_PLAN_REPS0 3
#define PERF_PLAN_MIN_ROUNDS 5
#define PERF_PLAN_PAD_MAX 480
#define PERF_PLAN_MAX_CLASSES 8

typedef struct perf_class {
    double min_time;
    int reps, rounds;
    char filter[4096]; /* ^(name|name...)$, regex metacharacters escaped */
    int has_base, has_head; /* a side runs the class only when it has one of its names */
    int threaded;           /* its benchmarks run several threads: a duet runs its pair in turn */
} perf_class;

typedef struct perf_plan {
    perf_set names; /* the listed benchmarks (one sample each, unused) */
    int *cls_of;    /* per name: its class in this plan, -1 not run */
    int *side_of;   /* per name: 0 both sides have it, PERF_BASE_ONLY, PERF_HEAD_ONLY */
    perf_class cls[PERF_PLAN_MAX_CLASSES];
    size_t ncls;
    int rounds0, reps0; /* of the first rounds */
    double alpha;       /* the smallest alpha of the listed benchmarks' budgets */
    size_t need_u;      /* the rounds the per-process U test needs (bg_mann_whitney_rounds_for) */
    bg_rng rng;
    uint64_t seed;
} perf_plan;

/* Lists the benchmarks of cmd (the head) matching filter and makes the first
 * plan.  base_cmd (bg-perf ab; NULL: the base has the head's names) is
 * listed too, and its names the head lacks join the plan, so that a
 * benchmark the head deleted or renamed is run on the base and judged
 * "vanished" (perf_gate.h); a base that matches nothing adds none.
 * cli_min_time 0: per budget; cli_rounds / cli_reps 0: automatic (above).
 * Prints one line with the rounds, repetitions, classes and seed (the caller
 * notes when the rounds cannot reach alpha: its judge decides how many
 * would; alpha and need_u for the U test).  Errors of
 * perf_run_list; BG_E_USAGE more than PERF_PLAN_MAX_CLASSES min_time values. */
bg_status perf_plan_make(perf_plan *p, const perf_cmd *cmd, const perf_cmd *base_cmd,
                         const char *filter, const char *work_dir,
                         const cJSON *budgets, double cli_min_time, int cli_rounds, int cli_reps,
                         uint64_t seed);

/* Re-plans for a rerun of the inconclusive results in r (reps and rounds as
 * above unless given on the command line; costs from head's series).
 * Returns the number of classes (0: nothing to rerun). */
size_t perf_plan_rerun(perf_plan *p, const perf_result *r, size_t n, const perf_set *head,
                       const cJSON *budgets, double cli_min_time, int cli_rounds, int cli_reps);

/* 1 when the benchmark name runs more than one thread ("threads:N", N > 1,
 * Google Benchmark's ->Threads(N) suffix): two such processes at once would
 * compete for the CPUs their threads need. */
int perf_plan_threaded(const char *name);

/* 1 when round r runs head first (random, from the plan's seed). */
int perf_plan_head_first(perf_plan *p);

/* "BG_PERF_PAD=xxx..." of a random length 0..PERF_PLAN_PAD_MAX into buf
 * (PERF_PLAN_PAD_MAX + 16 bytes). */
void perf_plan_pad(perf_plan *p, char *buf);

/* After a process of class c ran (wall seconds, out its JSON already added to
 * set): records for each of its benchmarks the seconds the process spent
 * outside the repetitions (perf_series.setup_s). */
void perf_plan_note_setup(const perf_plan *p, size_t c, perf_set *set, double wall);

void perf_plan_free(perf_plan *p);

#endif
