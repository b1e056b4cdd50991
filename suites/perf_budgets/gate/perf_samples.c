/* perf_samples.c — see perf_samples.h. */
#define _POSIX_C_SOURCE 200809L
#include "perf_samples.h"

#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_json.h"
#include "perf_gbjson.h"

static double unit_to_ns(const char *unit)
{
    if (!unit || strcmp(unit, "ns") == 0)
        return 1.0;
    if (strcmp(unit, "us") == 0)
        return 1e3;
    if (strcmp(unit, "ms") == 0)
        return 1e6;
    if (strcmp(unit, "s") == 0)
        return 1e9;
    return 0.0;
}

/* Makes room for one more element in *arr (n used of *cap, elem bytes each),
 * doubling from 16. */
static bg_status grow(void **arr, size_t n, size_t *cap, size_t elem)
{
    if (n < *cap)
        return BG_OK;
    size_t nc = *cap ? *cap * 2 : 16;
    void *na = realloc(*arr, nc * elem);
    if (!na)
        return BG_E_NOMEM;
    *arr = na;
    *cap = nc;
    return BG_OK;
}

unsigned long perf_set_new_proc(perf_set *set)
{
    return ++set->procs;
}

bg_status perf_set_push(perf_set *set, const char *name, double v)
{
    return perf_set_push_proc(set, name, v, perf_set_new_proc(set));
}

bg_grouped perf_series_grouped(const perf_series *s)
{
    return (bg_grouped){s->v, s->off, s->ng};
}

void perf_set_flatten(perf_set *set)
{
    for (size_t i = 0; i < set->n; i++) {
        perf_series *s = &set->s[i];
        size_t *o = realloc(s->off, (s->n + 1) * sizeof *o);
        if (!o)
            continue; /* keeps the processes */
        for (size_t k = 0; k <= s->n; k++)
            o[k] = k;
        s->off = o;
        s->ocap = s->n + 1;
        s->ng = s->n;
    }
}

/* The series called name, created (empty) when new; NULL out of memory. */
static perf_series *series_get(perf_set *set, const char *name)
{
    perf_series *s = (perf_series *)perf_set_find(set, name);
    if (s)
        return s;
    if (grow((void **)&set->s, set->n, &set->cap, sizeof *set->s) != BG_OK)
        return NULL;
    s = &set->s[set->n];
    *s = (perf_series){0};
    s->name = strdup(name);
    if (!s->name)
        return NULL;
    set->n++;
    return s;
}

bg_status perf_set_push_proc(perf_set *set, const char *name, double v, unsigned long proc)
{
    perf_series *s = series_get(set, name);
    if (!s)
        return BG_E_NOMEM;
    if (grow((void **)&s->v, s->n, &s->cap, sizeof *s->v) != BG_OK)
        return BG_E_NOMEM;
    if (s->ng == 0 || s->proc != proc) { /* a new process: off[ng + 1] will be its end */
        if (grow((void **)&s->off, s->ng + 2, &s->ocap, sizeof *s->off) != BG_OK)
            return BG_E_NOMEM;
        s->off[0] = 0;
        s->ng++;
        s->proc = proc;
    }
    s->v[s->n++] = v;
    s->off[s->ng] = s->n;
    return BG_OK;
}

const perf_series *perf_set_find(const perf_set *set, const char *name)
{
    for (size_t i = 0; i < set->n; i++)
        if (strcmp(set->s[i].name, name) == 0)
            return &set->s[i];
    return NULL;
}

const perf_series *perf_set_first_error(const perf_set *set)
{
    const perf_series *first = NULL;
    for (size_t i = 0; i < set->n; i++) {
        if (set->s[i].error && set->s[i].reported)
            return &set->s[i];
        if (set->s[i].error && !first)
            first = &set->s[i];
    }
    return first;
}

/* Keeps the mean seconds per repetition (iterations x real_time) of name. */
static void note_rep_time(perf_set *set, const char *name, const cJSON *row)
{
    double k = unit_to_ns(bg_json_str(row, "time_unit"));
    double it = bg_json_num(row, "iterations", 0), rt = bg_json_num(row, "real_time", 0);
    perf_series *s = (perf_series *)perf_set_find(set, name);
    if (!s || !(k > 0 && it > 0 && rt > 0))
        return;
    double sec = it * rt * k * 1e-9;
    s->rep_s = (s->rep_s * (double)s->rep_n + sec) / (double)(s->rep_n + 1);
    s->rep_n++;
}

/* Keeps the first reason (printf-style) in *slot of name's series. */
static bg_status mark(perf_set *set, const char *name, int skipped, const char *fmt, ...)
{
    perf_series *s = series_get(set, name);
    if (!s)
        return BG_E_NOMEM;
    char **slot = skipped ? &s->skipped : &s->error;
    if (*slot)
        return BG_OK;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    *slot = strdup(buf);
    return *slot ? BG_OK : BG_E_NOMEM;
}

/* The metric of one iteration row, or of a median aggregate row (aggregate:
 * 1), in ns for times, or a reason in the series. */
static bg_status add_row(perf_set *set, const cJSON *row, const char *name, const char *metric,
                         unsigned long proc, const char *what, int aggregate)
{
    const cJSON *mv = cJSON_GetObjectItemCaseSensitive(row, metric);
    if (!cJSON_IsNumber(mv))
        return mark(set, name, 0, "no numeric \"%s\" in its Google Benchmark row", metric);
    double v = mv->valuedouble;
    if (!isfinite(v))
        return mark(set, name, 0, "%s is %s: Google Benchmark wrote a non-finite value", metric,
                    isnan(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity");
    if (strcmp(metric, "real_time") == 0 || strcmp(metric, "cpu_time") == 0) {
        const char *unit = bg_json_str(row, "time_unit");
        double k = unit_to_ns(unit);
        if (k == 0.0)
            return bg_fail(BG_E_PARSE, what, "benchmark %s: time_unit \"%s\" is not ns, us, ms or s",
                           name, unit);
        v *= k;
    }
    if (!(v > 0))
        return mark(set, name, 0, "%s = %g is not positive", metric, v);
    if (perf_set_push_proc(set, name, v, proc) != BG_OK)
        return BG_E_NOMEM;
    if (!aggregate) { /* an aggregate's "iterations" is its repetition count */
        note_rep_time(set, name, row);
        return BG_OK;
    }
    perf_series *s = (perf_series *)perf_set_find(set, name);
    s->agg_procs++;
    double reps = bg_json_num(row, "repetitions", 0);
    if (reps > (double)s->agg_reps && reps < 1e9)
        s->agg_reps = (size_t)reps;
    return BG_OK;
}

/* 1 when row is Google Benchmark's "median" aggregate in time units (the
 * row ReportAggregatesOnly leaves of a benchmark's repetitions that the gate
 * can use: perf_samples.h "Aggregate-only benchmarks"). */
static int median_row(const cJSON *row)
{
    const char *type = bg_json_str(row, "run_type"), *agg = bg_json_str(row, "aggregate_name"),
               *unit = bg_json_str(row, "aggregate_unit");
    return type && !strcmp(type, "aggregate") && agg && !strcmp(agg, "median") &&
           (!unit || !strcmp(unit, "time"));
}

/* The row's benchmark name: "run_name" (no aggregate suffix), else "name". */
static const char *row_name(const cJSON *row)
{
    const char *name = bg_json_str(row, "run_name");
    return name ? name : bg_json_str(row, "name");
}

bg_status perf_set_expect(perf_set *set, const char *name)
{
    perf_series *s = series_get(set, name);
    if (!s)
        return BG_E_NOMEM;
    set->expect = 1;
    s->want_docs++;
    return BG_OK;
}

size_t perf_series_want(const perf_set *set, const perf_series *s)
{
    return set->expect ? s->want_docs : (size_t)set->docs;
}

/* Counts document doc as one that has a row of name. */
static bg_status seen_in(perf_set *set, const char *name, unsigned long doc)
{
    perf_series *s = series_get(set, name);
    if (!s)
        return BG_E_NOMEM;
    if (s->doc != doc) {
        s->doc = doc;
        s->docs++;
    }
    return BG_OK;
}

bg_status perf_set_add_doc(perf_set *set, const cJSON *doc, const char *metric, const char *what)
{
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(doc, "benchmarks");
    if (!cJSON_IsArray(rows))
        return bg_fail(BG_E_PARSE, what, "no \"benchmarks\" array: not Google Benchmark JSON");
    unsigned long docno = ++set->docs;
    size_t used = 0;
    unsigned long proc = perf_set_new_proc(set);
    const cJSON *row;
    cJSON_ArrayForEach(row, rows)
    {
        const char *name = row_name(row);
        if (!name)
            return bg_fail(BG_E_PARSE, what, "a benchmark row has no \"name\"");
        const char *type = bg_json_str(row, "run_type");
        if (type && strcmp(type, "iteration") != 0)
            continue; /* aggregates: the gate computes its own (median rows: below) */
        if (seen_in(set, name, docno) != BG_OK)
            return bg_fail(BG_E_NOMEM, what, "out of memory");
        bg_status st;
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "error_occurred"))) {
            const char *msg = bg_json_str(row, "error_message");
            perf_series *s = series_get(set, name);
            if (s && !s->reported) { /* Google Benchmark's own error outranks a metric one */
                free(s->error);
                s->error = NULL;
                s->reported = 1;
                set->errors++;
            }
            st = !s ? BG_E_NOMEM
                    : mark(set, name, 0, "reported an error: %s", msg && *msg ? msg : "(no message)");
        } else if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "skipped"))) {
            const char *msg = bg_json_str(row, "skip_message");
            st = mark(set, name, 1, "%s", msg && *msg ? msg : "(no message)");
        } else {
            st = add_row(set, row, name, metric, proc, what, 0);
        }
        if (st == BG_E_NOMEM)
            return bg_fail(BG_E_NOMEM, what, "out of memory");
        if (st != BG_OK)
            return st;
        used++;
    }
    /* Benchmarks of this document with aggregate rows only (ReportAggregatesOnly):
     * their median aggregate is this process's sample */
    cJSON_ArrayForEach(row, rows)
    {
        const char *name = row_name(row);
        const perf_series *s = name ? perf_set_find(set, name) : NULL;
        if (!name || !median_row(row) || (s && s->doc == docno))
            continue;
        if (seen_in(set, name, docno) != BG_OK)
            return bg_fail(BG_E_NOMEM, what, "out of memory");
        bg_status st = add_row(set, row, name, metric, proc, what, 1);
        if (st == BG_E_NOMEM)
            return bg_fail(BG_E_NOMEM, what, "out of memory");
        if (st != BG_OK)
            return st;
        used++;
    }
    if (used == 0)
        return bg_fail(BG_E_PARSE, what,
                       "zero repetitions: no iteration rows and no median aggregate in \"benchmarks\"");
    if (!set->context) {
        const cJSON *ctx = cJSON_GetObjectItemCaseSensitive(doc, "context");
        if (ctx)
            set->context = cJSON_Duplicate(ctx, 1);
    }
    return BG_OK;
}

/* Drops each benchmark's first repetition (the iteration row with
 * "repetition_index" 0 when "repetitions" > 1) from a parsed document. */
static void drop_warmup(cJSON *doc)
{
    cJSON *rows = cJSON_GetObjectItemCaseSensitive(doc, "benchmarks"), *row = rows ? rows->child : NULL;
    while (row) {
        cJSON *next = row->next;
        const cJSON *type = cJSON_GetObjectItemCaseSensitive(row, "run_type"),
                    *rep = cJSON_GetObjectItemCaseSensitive(row, "repetition_index"),
                    *reps = cJSON_GetObjectItemCaseSensitive(row, "repetitions");
        if (cJSON_IsString(type) && !strcmp(type->valuestring, "iteration") && cJSON_IsNumber(rep) &&
            rep->valuedouble == 0 && cJSON_IsNumber(reps) && reps->valuedouble > 1)
            cJSON_Delete(cJSON_DetachItemViaPointer(rows, row));
        row = next;
    }
}

static bg_status add_file(perf_set *set, const char *path, const char *metric, int without_warmup)
{
    cJSON *doc = NULL;
    bg_status st = perf_gbjson_load(path, &doc);
    if (st != BG_OK)
        return st;
    if (without_warmup)
        drop_warmup(doc);
    st = perf_set_add_doc(set, doc, metric, path);
    cJSON_Delete(doc);
    return st;
}

bg_status perf_set_add_file(perf_set *set, const char *path, const char *metric)
{
    return add_file(set, path, metric, 0);
}

bg_status perf_set_add_file_after_warmup(perf_set *set, const char *path, const char *metric)
{
    return add_file(set, path, metric, 1);
}

static void series_free(perf_series *s)
{
    free(s->name);
    free(s->v);
    free(s->off);
    free(s->skipped);
    free(s->error);
}

void perf_set_keep_matching(perf_set *set, const char *filter)
{
    int neg = filter && filter[0] == '-';
    const char *re = filter ? filter + neg : NULL;
    regex_t rx;
    if (!re || !*re || !strcmp(re, ".") || !strcmp(re, "all") ||
        regcomp(&rx, re, REG_EXTENDED | REG_NOSUB) != 0)
        return;
    size_t kept = 0;
    for (size_t i = 0; i < set->n; i++) {
        perf_series *s = &set->s[i];
        if ((regexec(&rx, s->name, 0, NULL, 0) == 0) != neg) {
            set->s[kept++] = *s;
            continue;
        }
        series_free(s);
    }
    set->n = kept;
    regfree(&rx);
}

void perf_set_free(perf_set *set)
{
    for (size_t i = 0; i < set->n; i++)
        series_free(&set->s[i]);
    free(set->s);
    cJSON_Delete(set->context);
    *set = (perf_set){0};
}
