/* perf-aa-resample — the A/A resampling study of the gate (docs/performance.md,
 * "The unit of replication" and "Suite false-alarm rate"): from stored A/A
 * processes, many A/A (or planted-shift) comparisons of one benchmark or of a
 * whole suite.  Usage and output: usage_text below.  A study tool, not a test.
 */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <math.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_help.h"
#include "buildgate/bg_stats.h"
#include "perf_binom.h"
#include "perf_budget.h"
#include "perf_gate.h"
#include "perf_paired.h"
#include "perf_samples.h"

static const char usage_text[] =
    "Usage: perf-aa-resample --dir D [--dir D2 ...] --k K --draws N [--reps R]\n"
    "                        [--budgets B] [--unit process|sample] [--seed S]\n"
    "                        [--head-scale X [--scale-only RE]] [--reruns M]\n"
    "                        [--paired [--seq]] [--verbose]\n"
    "\n"
    "Each D holds Google Benchmark JSON files of one build, one process each\n"
    "(suites/perf_budgets/study/aa-raw.sh writes base-NNN.json and head-NNN.json; all\n"
    "are exchangeable in an A/A study): a pool.  Several --dir (up to 8) make a\n"
    "suite of pools with distinct benchmarks, e.g. synth+AES processes (min_time\n"
    "0.05) and RandomX processes (0.5), as the PR judge runs them.  N times: from\n"
    "every pool draw 2K distinct files at random (splitmix64, seed S, default 1),\n"
    "keep the first R repetitions of each (default all), call K of them base and\n"
    "K head, and judge all benchmarks together as `bg-perf compare` would\n"
    "(perf_gate.h: Benjamini-Hochberg over the suite; --unit sample: every sample\n"
    "independent, the judge before processes were the unit).\n"
    "--reruns M: then as `bg-perf ab` with max_reruns M does: up to M reruns of\n"
    "the inconclusive benchmarks and M more of the unresolved slowdowns, each\n"
    "adding K further unused processes per side of their pools (just their\n"
    "series); a draw whose pool runs out stops rerunning (counted, printed).\n"
    "--head-scale X multiplies the head's samples by X in time (a planted shift,\n"
    "1.03 = 3 %% slower; rates are divided), only of the benchmarks matching the\n"
    "extended regex --scale-only RE when given: the detection rate on the same\n"
    "processes.\n"
    "Prints per benchmark: fail (with its 95 %% Clopper-Pearson interval),\n"
    "inconclusive (of which unresolved slowdowns: interval wholly above 1 + band,\n"
    "perf_gate.h), pass, how often the interval covers 1.0, the median interval\n"
    "width; then the suite: draws with any fail and their interval (the suite\n"
    "false-alarm rate in an A/A study).  Draws from one pool share processes, so\n"
    "the interval is approximate (it treats the draws as independent).\n"
    "--paired: the duet judge (bg-perf ab --duet, perf_paired.h).  Each D is a\n"
    "pool of pairs: base-KEY.json and head-KEY.json ran at the same time\n"
    "(aa-raw.sh --duet writes base-NNN-C.json: round NNN, plan class C; the\n"
    "files of one round are one pair); every base file needs its head twin.\n"
    "A draw takes K distinct pairs (rounds) from every pool, judges the\n"
    "per-pair log ratios (Hodges-Lehmann estimate, signed-rank interval and\n"
    "exact Wilcoxon p, then BH over the suite), and a rerun adds K unused\n"
    "pairs; --head-scale scales the head of each pair.\n"
    "--seq (with --paired): then the sequential pairs of bg-perf ab --duet\n"
    "(perf_paired.h): the benchmarks still undecided get up to seq_looks looks,\n"
    "each adding unused pairs (perf_paired_seq_add) and judged at alpha/seq_looks,\n"
    "until DIFFERENT, SAME or seq_max_pairs (seq_time_cap is not simulated), else\n"
    "UNKNOWN; prints how many draws had looks, their outcomes and the pairs added.\n"
    "Exit: 0; 2 usage (also: a pool with fewer than 2K processes, --paired: K\n"
    "pairs, or a base file without its head twin); 3 I/O;\n"
    "4 malformed JSON.\n";

#define MAX_POOLS 8

typedef struct pool {
    const char *dir;
    perf_set *proc; /* one set per file (cap of them allocated) */
    size_t n, cap;
    /* the units a draw takes: a process (interleaved), or (--paired) a pair =
       one round, i.e. the files pb[u0[i]..u0[i+1]-1] (base) and ph[...] (head) */
    size_t *pb, *ph, *u0;
    size_t nu;
    size_t *idx;    /* this draw's order of the units: base, head, then the reserve for reruns */
    size_t next;    /* the next unused position of idx */
} pool;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The round of a pool file name "base-NNN[-C].json" / "head-...": the
 * length of its NNN. */
static size_t round_len(const char *name)
{
    return strcspn(name + 5, "-.");
}

/* --paired: pairs base-KEY.json with head-KEY.json (names sorted: every base
 * file has its head twin, no head file is left over) and groups the pairs by
 * round; else every file is a unit of its own. */
static bg_status make_units(pool *p, char **names, int paired)
{
    size_t nb = 0;
    while (nb < p->n && !strncmp(names[nb], "base-", 5))
        nb++;
    p->pb = calloc(p->n + 1, sizeof *p->pb);
    p->ph = calloc(p->n + 1, sizeof *p->ph);
    p->u0 = calloc(p->n + 2, sizeof *p->u0);
    if (!p->pb || !p->ph || !p->u0)
        return BG_E_NOMEM;
    if (!paired) {
        for (size_t i = 0; i <= p->n; i++)
            p->u0[i] = i;
        p->nu = p->n;
        return BG_OK;
    }
    /* names are sorted, so base-KEY.json and head-KEY.json stand at i and nb + i:
       the first place where the keys differ names a file without its twin (the
       smaller key: the other side has no file of that key) */
    size_t nh = p->n - nb;
    for (size_t i = 0; i < nb || i < nh; i++) {
        int c = i >= nb ? 1 : i >= nh ? -1 : strcmp(names[i] + 5, names[nb + i] + 5);
        if (c == 0)
            continue;
        int base = c < 0;
        const char *lone = base ? names[i] : names[nb + i];
        return bg_fail(BG_E_USAGE, "perf-aa-resample", "--paired: %s: %s has no %s twin (%s-%s)", p->dir,
                       lone, base ? "head" : "base", base ? "head" : "base", lone + 5);
    }
    for (size_t i = 0; i < nb; i++) {
        p->pb[i] = i;
        p->ph[i] = nb + i;
        size_t l = round_len(names[i]);
        if (i == 0 || l != round_len(names[i - 1]) || strncmp(names[i] + 5, names[i - 1] + 5, l) != 0)
            p->u0[p->nu++] = i;
    }
    p->u0[p->nu] = nb;
    return BG_OK;
}

static bg_status load_pool(const char *dir, const char *metric, int paired, pool *p)
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
    p->dir = dir;
    p->proc = calloc(k ? k : 1, sizeof *p->proc);
    p->cap = p->proc ? k : 0;
    p->idx = calloc(k ? k : 1, sizeof *p->idx);
    bg_status st = p->proc && p->idx ? BG_OK : BG_E_NOMEM;
    for (size_t i = 0; i < k; i++) {
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        if (st == BG_OK && (st = perf_set_add_file(&p->proc[p->n], path, metric)) == BG_OK)
            p->n++;
    }
    if (st == BG_OK)
        st = make_units(p, names, paired);
    for (size_t i = 0; i < k; i++)
        free(names[i]);
    return st;
}

static void pool_free(pool *p)
{
    for (size_t i = 0; i < p->cap; i++) /* a file that failed half-way is freed too */
        perf_set_free(&p->proc[i]);
    free(p->proc);
    free(p->idx);
    free(p->pb);
    free(p->ph);
    free(p->u0);
}

/* What a head sample is multiplied by, per benchmark name. */
typedef struct shift {
    double scale;   /* in time: > 1 slower */
    int lower_better;
    regex_t re;
    int has_re;
} shift;

static double shift_of(const shift *sh, const char *name)
{
    if (sh->scale == 1.0 || (sh->has_re && regexec(&sh->re, name, 0, NULL, 0) != 0))
        return 1.0;
    return sh->lower_better ? sh->scale : 1.0 / sh->scale;
}

/* Adds the first reps samples (0: all) of every series of src whose name is
 * in only (NULL: every series) to dst as one process, shifted by sh (NULL:
 * not shifted). */
static bg_status add_proc(perf_set *dst, const perf_set *src, size_t reps, const shift *sh, char *const *only,
                          size_t nonly)
{
    unsigned long proc = perf_set_new_proc(dst);
    for (size_t i = 0; i < src->n; i++) {
        const perf_series *s = &src->s[i];
        int take = only == NULL;
        for (size_t j = 0; !take && j < nonly; j++)
            take = strcmp(only[j], s->name) == 0;
        if (!take)
            continue;
        double f = sh ? shift_of(sh, s->name) : 1.0;
        size_t m = reps && reps < s->n ? reps : s->n;
        for (size_t j = 0; j < m; j++)
            if (perf_set_push_proc(dst, s->name, s->v[j] * f, proc) != BG_OK)
                return BG_E_NOMEM;
    }
    return BG_OK;
}

/* Adds the next units of every pool (just the series in only, NULL: all):
 * K base and K head processes, or (paired) K pairs, each pair's base files to
 * base and its head files to head in the same order (pair k = process k of
 * each side, as perf_paired_rejudge reads them).  0 when a pool has too few
 * unused units left. */
static int add_round(pool *p, size_t np, long k, int paired, size_t reps, const shift *sh, perf_set *base,
                     perf_set *head, char *const *only, size_t nonly, bg_status *st)
{
    size_t need = (size_t)(paired ? k : 2 * k);
    for (size_t j = 0; j < np; j++)
        if (p[j].next + need > p[j].nu)
            return 0;
    for (size_t j = 0; j < np && *st == BG_OK; j++) {
        for (long i = 0; i < k && *st == BG_OK; i++) {
            size_t u = p[j].idx[p[j].next + (size_t)i];
            if (paired) {
                for (size_t f = p[j].u0[u]; f < p[j].u0[u + 1] && *st == BG_OK; f++) {
                    *st = add_proc(base, &p[j].proc[p[j].pb[f]], reps, NULL, only, nonly);
                    if (*st == BG_OK)
                        *st = add_proc(head, &p[j].proc[p[j].ph[f]], reps, sh, only, nonly);
                }
                continue;
            }
            *st = add_proc(base, &p[j].proc[u], reps, NULL, only, nonly);
            if (*st == BG_OK)
                *st = add_proc(head, &p[j].proc[p[j].idx[p[j].next + (size_t)(k + i)]], reps, sh, only, nonly);
        }
        p[j].next += need;
    }
    return 1;
}

/* perf_gate_compare, then (paired) the duet judge on per-pair ratios, as
 * bg-perf ab --duet does (perf_paired.h). */
static bg_status judge(const perf_set *base, const perf_set *head, const cJSON *budgets, int paired,
                       char *const *seq, size_t nseq, perf_result **r, size_t *n, size_t *unpaired)
{
    bg_status st = perf_gate_compare(base, head, budgets, r, n);
    size_t u = 0;
    if (st == BG_OK && paired)
        st = perf_paired_rejudge_seq(*r, *n, seq, nseq, &u);
    *unpaired += u;
    return st;
}

typedef struct tally {
    char *name;
    size_t fail, inconclusive, pass, cover, unresolved;
    double *width;
} tally;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static tally *tally_for(tally **t, size_t *nt, const char *name, long draws)
{
    for (size_t i = 0; i < *nt; i++)
        if (!strcmp((*t)[i].name, name))
            return &(*t)[i];
    tally *g = realloc(*t, (*nt + 1) * sizeof **t);
    if (!g)
        return NULL;
    *t = g;
    g[*nt] = (tally){.name = strdup(name), .width = calloc((size_t)draws, sizeof(double))};
    return g[*nt].name && g[*nt].width ? &g[(*nt)++] : NULL;
}

/* "x/n = p % [lo %, hi %]" with the 95 % Clopper-Pearson interval. */
static void rate_text(size_t x, size_t n, char *buf, size_t len)
{
    double lo, hi;
    perf_clopper_pearson(x, n, 0.95, &lo, &hi);
    snprintf(buf, len, "%zu/%zu = %.2f %% [%.2f %%, %.2f %%]", x, n, 100.0 * (double)x / (double)n, 100 * lo,
             100 * hi);
}

/* The names of r to rerun: inconclusive ones, or (confirm) the unresolved slowdowns. */
static size_t rerun_set(const perf_result *r, size_t n, int confirm, char **names)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (confirm ? perf_result_unresolved(&r[i]) : r[i].outcome == PERF_INCONCLUSIVE)
            names[m++] = (char *)r[i].name;
    return m;
}

/* --unit sample: every sample a process of its own (perf_set_flatten). */
static void flatten_if(const char *unit, perf_set *base, perf_set *head)
{
    if (!strcmp(unit, "sample")) {
        perf_set_flatten(base);
        perf_set_flatten(head);
    }
}

typedef struct seq_tally {
    size_t draws, benchmarks, different, fail, same, unknown, looks, pairs, short_draws;
} seq_tally;

/* --seq: the sequential looks of bg-perf ab --duet (perf_paired.h) on this
 * draw, each adding unused pairs of the pools for the open benchmarks. */
static bg_status seq_looks(pool *p, size_t np, size_t reps, const shift *sh, perf_set *base, perf_set *head,
                           const cJSON *budgets, perf_result **r, size_t *n, size_t *unpaired, int verbose, long d,
                           seq_tally *sq)
{
    char **seq = calloc(*n ? *n : 1, sizeof *seq), **open = calloc(*n ? *n : 1, sizeof *open);
    size_t nseq = 0;
    bg_status st = seq && open ? BG_OK : BG_E_NOMEM;
    for (size_t i = 0; st == BG_OK && i < *n; i++) {
        if (!perf_paired_seq_open(&(*r)[i]))
            continue;
        if (!(seq[nseq++] = strdup((*r)[i].name)))
            st = BG_E_NOMEM;
        if (verbose) {
            char line[768];
            perf_result_line(&(*r)[i], line, sizeof line);
            printf("draw %ld: before the sequential looks: %s\n", d + 1, line);
        }
    }
    int look = 0;
    const char *stop = "seq_max_pairs reached";
    while (st == BG_OK && nseq > 0) {
        size_t add = perf_paired_seq_add(*r, *n, look + 1), m = 0;
        if (add == 0) {
            stop = perf_paired_seq_stop(*r, *n, seq, nseq);
            break;
        }
        for (size_t i = 0; i < *n; i++)
            if (perf_paired_seq_open(&(*r)[i]))
                open[m++] = (char *)(*r)[i].name;
        if (!add_round(p, np, (long)add, 1, reps, sh, base, head, open, m, &st)) {
            stop = "the pool ran out of unused pairs";
            sq->short_draws++;
            break;
        }
        look++;
        sq->looks++;
        sq->pairs += add;
        perf_results_free(*r, *n);
        *r = NULL;
        if (st == BG_OK)
            st = judge(base, head, budgets, 1, seq, nseq, r, n, unpaired);
    }
    if (st == BG_OK && nseq > 0) {
        perf_paired_seq_unknown(*r, *n, seq, nseq, look, stop);
        sq->draws++;
        for (size_t i = 0; i < *n; i++)
            for (size_t j = 0; j < nseq; j++) {
                const perf_result *x = &(*r)[i];
                if (strcmp(seq[j], x->name))
                    continue;
                sq->benchmarks++;
                sq->different += x->outcome == PERF_FAIL || x->outcome == PERF_IMPROVED;
                sq->fail += x->outcome == PERF_FAIL;
                sq->same += x->outcome == PERF_PASS;
                sq->unknown += x->outcome == PERF_INCONCLUSIVE;
                if (verbose)
                    printf("draw %ld: sequential: %s: %s after %zu pairs, %d look(s) (%s)\n", d + 1, x->name,
                           x->outcome == PERF_FAIL || x->outcome == PERF_IMPROVED ? "DIFFERENT"
                           : x->outcome == PERF_PASS ? "SAME" : "UNKNOWN",
                           x->np_base, look, perf_outcome_name(x->outcome));
            }
    }
    for (size_t i = 0; i < nseq; i++)
        free(seq[i]);
    free(seq);
    free(open);
    return st;
}

int main(int argc, char **argv)
{
    if (bg_help_requested(argc, argv))
        return bg_help_print(usage_text);
    const char *dirs[MAX_POOLS], *budgets_path = NULL, *unit = "process", *scale_only = NULL;
    size_t ndirs = 0;
    long k = 0, draws = 0, reps = 0, max_reruns = 0;
    unsigned long long seed = 1;
    double scale = 1.0;
    int verbose = 0, paired = 0, seq = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--verbose") || !strcmp(argv[i], "--paired") || !strcmp(argv[i], "--seq")) {
            *(argv[i][2] == 'v' ? &verbose : argv[i][2] == 'p' ? &paired : &seq) = 1;
            continue;
        }
        static const char *const names[] = {"--dir", "--k", "--draws", "--reps", "--budgets",
                                            "--unit", "--seed", "--head-scale", "--scale-only",
                                            "--reruns", NULL};
        if (!bg_option_in(argv[i], names))
            return bg_help_unknown_option(argv[i]);
        if (i + 1 >= argc)
            return bg_help_missing_value(argv[i]);
        const char *a = argv[i], *v = argv[++i];
        if (!strcmp(a, "--dir")) {
            if (ndirs == MAX_POOLS)
                return bg_exit_code(bg_fail(BG_E_USAGE, "perf-aa-resample", "more than %d --dir", MAX_POOLS));
            dirs[ndirs++] = v;
        } else if (!strcmp(a, "--k")) k = strtol(v, NULL, 10);
        else if (!strcmp(a, "--draws")) draws = strtol(v, NULL, 10);
        else if (!strcmp(a, "--reps")) reps = strtol(v, NULL, 10);
        else if (!strcmp(a, "--budgets")) budgets_path = v;
        else if (!strcmp(a, "--unit")) unit = v;
        else if (!strcmp(a, "--seed")) seed = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--head-scale")) scale = strtod(v, NULL);
        else if (!strcmp(a, "--scale-only")) scale_only = v;
        else if (!strcmp(a, "--reruns")) max_reruns = strtol(v, NULL, 10);
        else
            return bg_help_unknown_option(a);
    }
    if (!ndirs || k < 2 || !(scale > 0) || draws < 1 || reps < 0 || max_reruns < 0 ||
        (strcmp(unit, "process") && strcmp(unit, "sample")) || (paired && strcmp(unit, "process")) || (seq && !paired))
        return bg_exit_code(bg_fail(BG_E_USAGE, "perf-aa-resample",
                                    "needs --dir, --k >= 2, --draws >= 1, --unit process|sample (--paired: process), "
                                    "--reruns >= 0, --seq only with --paired"));
    shift sh = {.scale = scale};
    if (scale_only) {
        if (regcomp(&sh.re, scale_only, REG_EXTENDED | REG_NOSUB) != 0)
            return bg_exit_code(bg_fail(BG_E_USAGE, "perf-aa-resample", "--scale-only '%s' is not an extended regex",
                                        scale_only));
        sh.has_re = 1;
    }
    cJSON *budgets = NULL;
    tally *t = NULL;
    size_t nt = 0, suite_fail = 0, short_draws = 0, rerun_draws = 0, unpaired = 0;
    seq_tally sq = {0};
    bg_status st = perf_budgets_load(budgets_path, &budgets);
    sh.lower_better = st == BG_OK ? perf_budgets_lower_better(budgets) : 1;
    pool p[MAX_POOLS] = {{0}};
    for (size_t j = 0; j < ndirs && st == BG_OK; j++) {
        st = load_pool(dirs[j], perf_budgets_metric(budgets), paired, &p[j]);
        if (st == BG_OK && !paired && p[j].nu < (size_t)(2 * k))
            st = bg_fail(BG_E_USAGE, "perf-aa-resample", "%s holds %zu processes, fewer than 2K = %ld", dirs[j], p[j].n,
                         2 * k);
        if (st == BG_OK && paired && p[j].nu < (size_t)k)
            st = bg_fail(BG_E_USAGE, "perf-aa-resample", "%s holds %zu pairs, fewer than K = %ld", dirs[j], p[j].nu, k);
    }
    if (st != BG_OK)
        goto out;
    bg_rng rng = {seed};
    for (long d = 0; d < draws && st == BG_OK; d++) {
        for (size_t j = 0; j < ndirs; j++) { /* a full Fisher-Yates: the reserve is random too */
            for (size_t i = 0; i < p[j].nu; i++)
                p[j].idx[i] = i;
            for (size_t i = 0; i + 1 < p[j].nu; i++) {
                size_t r = i + (size_t)(bg_rng_next(&rng) % (p[j].nu - i)), x = p[j].idx[i];
                p[j].idx[i] = p[j].idx[r];
                p[j].idx[r] = x;
            }
            p[j].next = 0;
        }
        perf_set base = {0}, head = {0};
        add_round(p, ndirs, k, paired, (size_t)reps, &sh, &base, &head, NULL, 0, &st);
        flatten_if(unit, &base, &head);
        perf_result *r = NULL;
        size_t n = 0;
        if (st == BG_OK)
            st = judge(&base, &head, budgets, paired, NULL, 0, &r, &n, &unpaired);
        for (long rr = 0; st == BG_OK && rr < 2 * max_reruns; rr++) {
            int confirm = rr >= max_reruns;
            char **names = calloc(n ? n : 1, sizeof *names);
            size_t m = names ? rerun_set(r, n, confirm, names) : 0;
            if (!names)
                st = BG_E_NOMEM;
            if (m == 0) {
                free(names);
                if (confirm)
                    break;
                rr = max_reruns - 1; /* nothing inconclusive: on to the confirmations */
                continue;
            }
            rerun_draws += rr == 0;
            int ok = st == BG_OK && add_round(p, ndirs, k, paired, (size_t)reps, &sh, &base, &head, names, m, &st);
            free(names);
            flatten_if(unit, &base, &head);
            if (!ok) {
                short_draws++;
                break;
            }
            perf_results_free(r, n);
            r = NULL;
            if (st == BG_OK)
                st = judge(&base, &head, budgets, paired, NULL, 0, &r, &n, &unpaired);
        }
        if (st == BG_OK && seq)
            st = seq_looks(p, ndirs, (size_t)reps, &sh, &base, &head, budgets, &r, &n, &unpaired, verbose, d, &sq);
        int any_fail = 0;
        for (size_t i = 0; st == BG_OK && i < n; i++) {
            tally *g = tally_for(&t, &nt, r[i].name, draws);
            if (!g) {
                st = BG_E_NOMEM;
                break;
            }
            any_fail |= r[i].outcome == PERF_FAIL;
            g->fail += r[i].outcome == PERF_FAIL;
            g->inconclusive += r[i].outcome == PERF_INCONCLUSIVE;
            g->pass += r[i].outcome == PERF_PASS || r[i].outcome == PERF_IMPROVED;
            g->cover += r[i].lo <= 1.0 && r[i].hi >= 1.0;
            g->unresolved += (size_t)perf_result_unresolved(&r[i]);
            g->width[d] = r[i].hi - r[i].lo;
            if (verbose) {
                char line[768];
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
        goto out;
    printf("A/A resampling of %zu pool(s):", ndirs);
    for (size_t j = 0; j < ndirs; j++)
        printf(paired ? " %s (%zu pairs, %zu files)" : " %s (%zu processes)", p[j].dir, paired ? p[j].nu : p[j].n,
               p[j].n);
    if (paired)
        printf("; %ld draws of %ld pairs per pool, judged paired (duet: per-pair log ratios, Hodges-Lehmann, "
               "signed rank)", draws, k);
    else
        printf("; %ld draws of %ld vs %ld processes per pool", draws, k, k);
    printf(", %s repetitions each, unit %s, seed %llu, head x %g%s%s, reruns %ld\n", reps ? "first R" : "all",
           unit, seed, scale, scale_only ? " on " : "", scale_only ? scale_only : "", max_reruns);
    if (unpaired)
        printf("  results judged unpaired (unequal process counts on the two sides): %zu\n", unpaired);
    if (reps)
        printf("  R = %ld\n", reps);
    char rate[128];
    for (size_t i = 0; i < nt; i++) {
        qsort(t[i].width, (size_t)draws, sizeof(double), cmp_double);
        rate_text(t[i].fail, (size_t)draws, rate, sizeof rate);
        printf("  %s: fail %s, inconclusive %zu (unresolved slowdown %zu), pass %zu; interval covers 1.0 in "
               "%zu/%ld = %.1f %%; median interval width %.4f\n", t[i].name, rate, t[i].inconclusive,
               t[i].unresolved, t[i].pass, t[i].cover, draws, 100.0 * (double)t[i].cover / (double)draws,
               t[i].width[draws / 2]);
    }
    if (max_reruns)
        printf("  draws with a rerun: %zu/%ld; reruns cut short (a pool ran out of unused processes): %zu\n",
               rerun_draws, draws, short_draws);
    if (seq)
        printf("  sequential pairs: draws with looks %zu/%ld; benchmarks looked at %zu: DIFFERENT %zu (fail %zu), "
               "SAME %zu, UNKNOWN %zu; looks %zu, pairs added %zu (%.2f per draw, %.2f per draw with looks); "
               "looks cut short (a pool ran out of unused pairs): %zu\n",
               sq.draws, draws, sq.benchmarks, sq.different, sq.fail, sq.same, sq.unknown, sq.looks, sq.pairs,
               (double)sq.pairs / (double)draws, sq.draws ? (double)sq.pairs / (double)sq.draws : 0.0, sq.short_draws);
    rate_text(suite_fail, (size_t)draws, rate, sizeof rate);
    printf("  suite draws with any fail: %zu/%ld\n", suite_fail, draws);
    printf("  suite fail rate: %s (95 %% Clopper-Pearson)\n", rate);
out: /* everything freed, on every path (LeakSanitizer under the asan preset) */
    for (size_t j = 0; j < ndirs; j++)
        pool_free(&p[j]);
    for (size_t i = 0; i < nt; i++) {
        free(t[i].name);
        free(t[i].width);
    }
    free(t);
    cJSON_Delete(budgets);
    if (sh.has_re)
        regfree(&sh.re);
    return bg_exit_code(st);
}
