/* perf_samples.c — see perf_samples.h. */
#define _POSIX_C_SOURCE 200809L
#include "perf_samples.h"

#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_json.h"

int perf_metric_lower_better(const char *metric)
{
    size_t n = strlen(metric), k = strlen("_per_second");
    return !(n >= k && strcmp(metric + n - k, "_per_second") == 0);
}

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

bg_status perf_set_push_proc(perf_set *set, const char *name, double v, unsigned long proc)
{
    perf_series *s = (perf_series *)perf_set_find(set, name);
    if (!s) {
        if (grow((void **)&set->s, set->n, &set->cap, sizeof *set->s) != BG_OK)
            return BG_E_NOMEM;
        s = &set->s[set->n];
        *s = (perf_series){0};
        s->name = strdup(name);
        if (!s->name)
            return BG_E_NOMEM;
        set->n++;
    }
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

bg_status perf_set_add_doc(perf_set *set, const cJSON *doc, const char *metric, const char *what)
{
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(doc, "benchmarks");
    if (!cJSON_IsArray(rows))
        return bg_fail(BG_E_PARSE, what, "no \"benchmarks\" array: not Google Benchmark JSON");
    int is_time = strcmp(metric, "real_time") == 0 || strcmp(metric, "cpu_time") == 0;
    size_t used = 0;
    unsigned long proc = perf_set_new_proc(set);
    const cJSON *row;
    cJSON_ArrayForEach(row, rows)
    {
        const char *name = bg_json_str(row, "run_name");
        if (!name)
            name = bg_json_str(row, "name");
        if (!name)
            return bg_fail(BG_E_PARSE, what, "a benchmark row has no \"name\"");
        if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(row, "error_occurred"))) {
            const char *msg = bg_json_str(row, "error_message");
            return bg_fail(BG_E_TARGET, what, "benchmark %s reported an error: %s", name,
                           msg ? msg : "(no message)");
        }
        const char *type = bg_json_str(row, "run_type");
        if (type && strcmp(type, "iteration") != 0)
            continue;
        const cJSON *mv = cJSON_GetObjectItemCaseSensitive(row, metric);
        if (!cJSON_IsNumber(mv))
            return bg_fail(BG_E_PARSE, what, "benchmark %s has no numeric \"%s\"", name, metric);
        double v = mv->valuedouble;
        if (is_time) {
            double k = unit_to_ns(bg_json_str(row, "time_unit"));
            if (k == 0.0)
                return bg_fail(BG_E_PARSE, what, "benchmark %s: unknown time_unit", name);
            v *= k;
        }
        if (!(v > 0))
            return bg_fail(BG_E_PARSE, what, "benchmark %s: %s = %g is not positive", name, metric, v);
        if (perf_set_push_proc(set, name, v, proc) != BG_OK)
            return bg_fail(BG_E_NOMEM, what, "out of memory");
        note_rep_time(set, name, row);
        used++;
    }
    if (used == 0)
        return bg_fail(BG_E_PARSE, what, "zero repetitions: no iteration rows in \"benchmarks\"");
    if (!set->context) {
        const cJSON *ctx = cJSON_GetObjectItemCaseSensitive(doc, "context");
        if (ctx)
            set->context = cJSON_Duplicate(ctx, 1);
    }
    return BG_OK;
}

bg_status perf_set_add_file(perf_set *set, const char *path, const char *metric)
{
    cJSON *doc = NULL;
    bg_status st = bg_json_load(path, "benchmark results", &doc);
    if (st != BG_OK)
        return st;
    st = perf_set_add_doc(set, doc, metric, path);
    cJSON_Delete(doc);
    return st;
}

void perf_set_free(perf_set *set)
{
    for (size_t i = 0; i < set->n; i++) {
        free(set->s[i].name);
        free(set->s[i].v);
        free(set->s[i].off);
    }
    free(set->s);
    cJSON_Delete(set->context);
    *set = (perf_set){0};
}
