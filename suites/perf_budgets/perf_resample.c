/* perf-aa-resample — the A/A resampling study of the gate (docs/performance.md,
 * "The unit of replication"): from stored A/A processes, many A/A comparisons.
 * Usage and output: usage_text below.  A study tool, not a test.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_help.h"
#include "buildgate/bg_stats.h"
#include "perf_budget.h"
#include "perf_gate.h"
#include "perf_samples.h"

static const char usage_text[] =
    "Usage: perf-aa-resample --dir D --k K --draws N [--reps R] [--budgets B]\n"
    "                        [--unit process|sample] [--seed S] [--head-scale X]\n"
    "                        [--verbose]\n"
    "\n"
    "D holds Google Benchmark JSON files of one build, one process each\n"
    "(suites/perf_budgets/aa-raw.sh writes base-NNN.json and head-NNN.json; all\n"
    "are exchangeable in an A/A study).  N times: draw 2K distinct files at\n"
    "random (splitmix64, seed S, default 1), keep the first R repetitions of\n"
    "each (default all), call K of them base and K head, and judge them as\n"
    "`bg-perf compare` would (perf_gate.h; --unit sample: every sample\n"
    "independent, the judge before processes were the unit).  Prints per\n"
    "benchmark: fail (false alarms), inconclusive (of which unresolved slowdowns:\n"
    "interval wholly above 1 + band, perf_gate.h), pass, how often the interval\n"
    "covers 1.0, the median interval width; and the suite runs with any fail.\n"
    "--head-scale X multiplies the head's samples by X (a planted shift, e.g.\n"
    "1.03 = 3 %% slower in time): the detection rate on the same processes.\n"
    "Exit: 0; 2 usage; 3 I/O; 4 malformed JSON.\n";

typedef struct pool {
    perf_set *proc; /* one set per file */
    size_t n, cap;
} pool;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bg_status load_pool(const char *dir, const char *metric, pool *p)
{
    DIR *d = opendir(dir);
    if (!d)
        return bg_fail(BG_E_IO, "perf-aa-resample", "cannot open %s", dir);
    char *names[4096];
    size_t k = 0;
    struct dirent *e;
    while ((e = readdir(d)) && k < 4096) {
        size_t l = strlen(e->d_name);
        if ((strncmp(e->d_name, "base-", 5) == 0 || strncmp(e->d_name, "head-", 5) == 0) && l > 5 &&
            strcmp(e->d_name + l - 5, ".json") == 0)
            names[k++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, k, sizeof *names, cmp_str);
    p->proc = calloc(k ? k : 1, sizeof *p->proc);
    bg_status st = p->proc ? BG_OK : BG_E_NOMEM;
    for (size_t i = 0; i < k; i++) {
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (st == BG_OK && (st = perf_set_add_file(&p->proc[p->n], path, metric)) == BG_OK)
            p->n++;
        free(names[i]);
    }
    return st;
}

/* Adds the first reps samples (0: all) of every series of src, times scale,
 * to dst as one process. */
static bg_status add_proc(perf_set *dst, const perf_set *src, size_t reps, double scale)
{
    unsigned long proc = perf_set_new_proc(dst);
    for (size_t i = 0; i < src->n; i++) {
        const perf_series *s = &src->s[i];
        size_t m = reps && reps < s->n ? reps : s->n;
        for (size_t j = 0; j < m; j++)
            if (perf_set_push_proc(dst, s->name, s->v[j] * scale, proc) != BG_OK)
                return BG_E_NOMEM;
    }
    return BG_OK;
}

typedef struct tally {
    const char *name;
    size_t fail, inconclusive, pass, cover, unresolved;
    double *width;
} tally;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    if (bg_help_requested(argc, argv))
        return bg_help_print(usage_text);
    const char *dir = NULL, *budgets_path = NULL, *unit = "process";
    long k = 0, draws = 0, reps = 0;
    unsigned long long seed = 1;
    double scale = 1.0;
    int verbose = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--verbose")) {
            verbose = 1;
            continue;
        }
        static const char *const names[] = {"--dir", "--k", "--draws", "--reps", "--budgets",
                                            "--unit", "--seed", "--head-scale", NULL};
        if (!bg_option_in(argv[i], names))
            return bg_help_unknown_option(argv[i]);
        if (i + 1 >= argc)
            return bg_help_missing_value(argv[i]);
        const char *a = argv[i], *v = argv[++i];
        if (!strcmp(a, "--dir")) dir = v;
        else if (!strcmp(a, "--k")) k = strtol(v, NULL, 10);
        else if (!strcmp(a, "--draws")) draws = strtol(v, NULL, 10);
        else if (!strcmp(a, "--reps")) reps = strtol(v, NULL, 10);
        else if (!strcmp(a, "--budgets")) budgets_path = v;
        else if (!strcmp(a, "--unit")) unit = v;
        else if (!strcmp(a, "--seed")) seed = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--head-scale")) scale = strtod(v, NULL);
        else
            return bg_help_unknown_option(a);
    }
    if (!dir || k < 2 || !(scale > 0) || draws < 1 || reps < 0 || (strcmp(unit, "process") && strcmp(unit, "sample")))
        return bg_exit_code(bg_fail(BG_E_USAGE, "perf-aa-resample",
                                    "needs --dir, --k >= 2, --draws >= 1, --unit process|sample"));
    cJSON *budgets = NULL;
    bg_status st = perf_budgets_load(budgets_path, &budgets);
    pool p = {0};
    if (st == BG_OK)
        st = load_pool(dir, perf_budgets_metric(budgets), &p);
    if (st == BG_OK && p.n < (size_t)(2 * k))
        st = bg_fail(BG_E_USAGE, "perf-aa-resample", "%s holds %zu processes, fewer than 2K = %ld", dir, p.n, 2 * k);
    if (st != BG_OK)
        return bg_exit_code(st);
    size_t *idx = malloc(p.n * sizeof *idx);
    tally *t = NULL;
    size_t nt = 0, suite_fail = 0;
    bg_rng rng = {seed};
    for (long d = 0; d < draws && st == BG_OK; d++) {
        for (size_t i = 0; i < p.n; i++)
            idx[i] = i;
        for (size_t i = 0; i < (size_t)(2 * k); i++) { /* partial Fisher-Yates */
            size_t j = i + (size_t)(bg_rng_next(&rng) % (p.n - i)), x = idx[i];
            idx[i] = idx[j];
            idx[j] = x;
        }
        perf_set base = {0}, head = {0};
        for (long i = 0; i < k && st == BG_OK; i++) {
            st = add_proc(&base, &p.proc[idx[i]], (size_t)reps, 1.0);
            if (st == BG_OK)
                st = add_proc(&head, &p.proc[idx[k + i]], (size_t)reps, scale);
        }
        if (!strcmp(unit, "sample")) {
            perf_set_flatten(&base);
            perf_set_flatten(&head);
        }
        perf_result *r = NULL;
        size_t n = 0;
        if (st == BG_OK)
            st = perf_gate_compare(&base, &head, budgets, &r, &n);
        if (st == BG_OK && !t) {
            nt = n;
            t = calloc(n, sizeof *t);
            for (size_t i = 0; i < n; i++) {
                t[i].name = strdup(r[i].name);
                t[i].width = calloc((size_t)draws, sizeof(double));
            }
        }
        int any_fail = 0;
        for (size_t i = 0; st == BG_OK && i < n && i < nt; i++) {
            char line[768];
            any_fail |= r[i].outcome == PERF_FAIL;
            t[i].fail += r[i].outcome == PERF_FAIL;
            t[i].inconclusive += r[i].outcome == PERF_INCONCLUSIVE;
            t[i].pass += r[i].outcome == PERF_PASS || r[i].outcome == PERF_IMPROVED;
            t[i].cover += r[i].lo <= 1.0 && r[i].hi >= 1.0;
            t[i].unresolved += (size_t)perf_result_unresolved(&r[i]);
            t[i].width[d] = r[i].hi - r[i].lo;
            if (verbose) {
                perf_result_line(&r[i], line, sizeof line);
                printf("draw %ld: %s\n", d + 1, line);
            }
        }
        suite_fail += any_fail;
        perf_results_free(r, n);
        perf_set_free(&base);
        perf_set_free(&head);
    }
    if (st != BG_OK)
        return bg_exit_code(st);
    printf("A/A resampling of %s: %zu processes, %ld draws of %ld vs %ld processes, %s repetitions "
           "each, unit %s, seed %llu, head x %g\n", dir, p.n, draws, k, k, reps ? "first R" : "all", unit,
           seed, scale);
    if (reps)
        printf("  R = %ld\n", reps);
    for (size_t i = 0; i < nt; i++) {
        qsort(t[i].width, (size_t)draws, sizeof(double), cmp_double);
        printf("  %s: fail %zu, inconclusive %zu (unresolved slowdown %zu), pass %zu; interval covers 1.0 in %zu/%ld = %.1f %%; "
               "median interval width %.4f\n", t[i].name, t[i].fail, t[i].inconclusive, t[i].unresolved, t[i].pass,
               t[i].cover, draws, 100.0 * (double)t[i].cover / (double)draws, t[i].width[draws / 2]);
    }
    printf("  suite draws with any fail: %zu/%ld\n", suite_fail, draws);
    return 0;
}
