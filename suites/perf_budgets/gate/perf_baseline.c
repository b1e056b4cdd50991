/* perf_baseline.c — see perf_baseline.h. */
#include "perf_baseline.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "buildgate/bg_host.h"
#include "buildgate/bg_json.h"
#include "buildgate/bg_stats.h"

static bg_status check_header(const cJSON *doc, const char *path, const char *host_key)
{
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(doc, "schema");
    if (!cJSON_IsNumber(schema) || schema->valuedouble != PERF_BASELINE_SCHEMA) {
        char got[120]; /* what is there, as written (a string "1" read as -1) */
        if (!schema)
            snprintf(got, sizeof got, "no \"schema\"");
        else if (cJSON_IsNumber(schema))
            snprintf(got, sizeof got, "schema %g", schema->valuedouble);
        else if (cJSON_IsString(schema))
            snprintf(got, sizeof got, "schema \"%.40s\" (a string, not a number)", schema->valuestring);
        else
            snprintf(got, sizeof got, "schema that is not a number");
        return bg_fail(BG_E_FIXTURE, "baseline", "%s: %s, this bg-perf reads schema %d", path, got,
                       PERF_BASELINE_SCHEMA);
    }
    const char *host = bg_json_str(doc, "host");
    if (!host || strcmp(host, host_key) != 0)
        return bg_fail(BG_E_FIXTURE, "baseline", "%s: recorded on host %s, this host is %s", path,
                       host ? host : "(none)", host_key);
    return BG_OK;
}

/* 1 when sizes (the "processes" entry of a benchmark) is an array of
 * positive integers adding up to n, the number of its samples. */
static int sizes_match(const cJSON *sizes, int n)
{
    const cJSON *v;
    int sum = 0;
    if (!cJSON_IsArray(sizes) || cJSON_GetArraySize(sizes) == 0)
        return 0;
    cJSON_ArrayForEach(v, sizes)
    {
        if (!cJSON_IsNumber(v) || v->valueint < 1 || v->valuedouble != v->valueint)
            return 0;
        sum += v->valueint;
    }
    return sum == n;
}

bg_status perf_baseline_load(const char *path, const char *host_key, const char *metric,
                             perf_set *set)
{
    cJSON *doc = NULL;
    bg_status st = bg_json_load(path, "baseline", &doc);
    if (st == BG_E_PARSE)
        return BG_E_FIXTURE; /* a stored baseline that does not parse is corrupt */
    if (st != BG_OK)
        return st;
    st = check_header(doc, path, host_key);
    const char *m = bg_json_str(doc, "metric");
    if (st == BG_OK && (!m || strcmp(m, metric) != 0))
        st = bg_fail(BG_E_FIXTURE, "baseline", "%s: metric %s, the budgets ask for %s", path,
                     m ? m : "(none)", metric);
    const cJSON *e, *procs = cJSON_GetObjectItemCaseSensitive(doc, "processes");
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(doc, "benchmarks"))
    {
        const cJSON *v, *stored = cJSON_GetObjectItemCaseSensitive(procs, e->string);
        int have = sizes_match(stored, cJSON_GetArraySize(e));
        if (st == BG_OK && stored && !have) /* the process unit would be lost: not "one process" */
            st = bg_fail(BG_E_FIXTURE, "baseline",
                         "%s: %s: \"processes\" is not a list of positive whole numbers adding up to "
                         "its %d samples", path, e->string, cJSON_GetArraySize(e));
        const cJSON *sz = have ? cJSON_GetObjectItemCaseSensitive(procs, e->string)->child : NULL;
        int left = sz ? sz->valueint : 0;
        unsigned long proc = perf_set_new_proc(set);
        cJSON_ArrayForEach(v, e)
        {
            if (st == BG_OK && !(cJSON_IsNumber(v) && v->valuedouble > 0 && isfinite(v->valuedouble)))
                st = bg_fail(BG_E_FIXTURE, "baseline", "%s: %s: a sample is not a positive finite number",
                             path, e->string);
            if (sz && left == 0) { /* the next stored process */
                sz = sz->next;
                left = sz->valueint;
                proc = perf_set_new_proc(set);
            }
            left--;
            if (st == BG_OK)
                st = sz ? perf_set_push_proc(set, e->string, v->valuedouble, proc)
                        : perf_set_push(set, e->string, v->valuedouble);
        }
    }
    if (st == BG_OK && set->n == 0)
        st = bg_fail(BG_E_FIXTURE, "baseline", "%s: no benchmark samples", path);
    cJSON_Delete(doc);
    return st;
}

static const char *ctx_str(const cJSON *ctx, const char *k)
{
    return ctx ? bg_json_str(ctx, k) : NULL;
}

/* The previous document at path (NULL when absent), checked for host/schema. */
static bg_status load_previous(const perf_record_opts *o, cJSON **prev)
{
    *prev = NULL;
    FILE *f = fopen(o->out, "r");
    if (!f)
        return BG_OK;
    fclose(f);
    bg_status st = bg_json_load(o->out, "baseline", prev);
    if (st == BG_OK)
        st = check_header(*prev, o->out, o->host_key);
    return st;
}

bg_status perf_baseline_check(const char *path, const char *host_key, const char *metric)
{
    perf_record_opts o = {.out = path, .host_key = host_key};
    cJSON *prev = NULL;
    bg_status st = load_previous(&o, &prev); /* JSON (BG_E_PARSE), schema and host */
    int exists = prev != NULL;
    cJSON_Delete(prev);
    if (st != BG_OK || !exists)
        return st; /* none yet: the first record writes it */
    perf_set set = {0}; /* then the gate's own loader: metric and every sample */
    st = perf_baseline_load(path, host_key, metric, &set);
    perf_set_free(&set);
    return st;
}

bg_status perf_baseline_record(const perf_record_opts *o, const perf_set *set)
{
    if (!o->reason || !*o->reason)
        return bg_fail(BG_E_USAGE, "record", "a reason is required: --reason \"<why>\" (ci/update-baselines passes its --approve)");
    const cJSON *ctx = set->context;
    const char *lbt = ctx_str(ctx, "library_build_type");
    int scaling = ctx && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ctx, "cpu_scaling_enabled"));
    if (!o->force && o->build_type && strcmp(o->build_type, "Debug") == 0)
        return bg_fail(BG_E_USAGE, "record", "refusing a Debug build (use --force to record anyway)");
    /* Debian 12's libbenchmark reports "library_build_type": "debug": it
     * affects the harness, not the timed C batch loop, so it is recorded
     * and warned about, not refused. */
    if (lbt && strcmp(lbt, "debug") == 0)
        printf("baseline: note: the Google Benchmark library reports a debug build\n");
    if (!o->force && scaling)
        return bg_fail(BG_E_USAGE, "record",
                       "CPU frequency scaling is enabled: timings drift (use --force to record anyway)");
    cJSON *prev = NULL;
    bg_status st = load_previous(o, &prev);
    if (st != BG_OK) {
        cJSON_Delete(prev);
        return st;
    }
    char date[32];
    bg_utc_now(date);
    bg_host h;
    bg_host_probe(&h);
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddNumberToObject(doc, "schema", PERF_BASELINE_SCHEMA);
    cJSON_AddStringToObject(doc, "host", o->host_key);
    cJSON_AddStringToObject(doc, "metric", o->metric);
    cJSON *pv = cJSON_AddObjectToObject(doc, "provenance");
    cJSON_AddStringToObject(pv, "commit", o->commit ? o->commit : "unknown");
    cJSON_AddStringToObject(pv, "compiler", h.compiler);
    cJSON_AddStringToObject(pv, "flags", o->flags ? o->flags : "");
    cJSON_AddStringToObject(pv, "build_type", o->build_type ? o->build_type : "unknown");
    cJSON_AddStringToObject(pv, "date", date);
    cJSON_AddStringToObject(pv, "reason", o->reason);
    cJSON_AddStringToObject(pv, "command", o->command ? o->command : "");
    cJSON_AddBoolToObject(pv, "forced", o->force);
    cJSON_AddItemToObject(pv, "benchmark_context", ctx ? cJSON_Duplicate(ctx, 1) : cJSON_CreateNull());
    cJSON *bm = cJSON_AddObjectToObject(doc, "benchmarks");
    cJSON *procs = cJSON_AddObjectToObject(doc, "processes");
    cJSON *entry = cJSON_CreateObject();
    cJSON_AddStringToObject(entry, "date", date);
    cJSON_AddStringToObject(entry, "commit", o->commit ? o->commit : "unknown");
    cJSON_AddStringToObject(entry, "reason", o->reason);
    cJSON *meds = cJSON_AddObjectToObject(entry, "medians");
    const cJSON *old_bm = prev ? cJSON_GetObjectItemCaseSensitive(prev, "benchmarks") : NULL;
    for (size_t i = 0; i < set->n; i++) {
        const perf_series *s = &set->s[i];
        cJSON_AddItemToObject(bm, s->name, cJSON_CreateDoubleArray(s->v, (int)s->n));
        cJSON *sizes = cJSON_AddArrayToObject(procs, s->name);
        for (size_t k = 0; k < s->ng; k++)
            cJSON_AddItemToArray(sizes, cJSON_CreateNumber((double)(s->off[k + 1] - s->off[k])));
        double med = bg_median(s->v, s->n);
        cJSON_AddNumberToObject(meds, s->name, med);
        const cJSON *old = old_bm ? cJSON_GetObjectItemCaseSensitive(old_bm, s->name) : NULL;
        double om = NAN;
        if (cJSON_IsArray(old)) {
            double tmp[512];
            int n = 0;
            const cJSON *v;
            cJSON_ArrayForEach(v, old) if (n < 512 && cJSON_IsNumber(v)) tmp[n++] = v->valuedouble;
            om = bg_median(tmp, (size_t)n);
        }
        if (isnan(om))
            printf("baseline: %s: new, median %.6g %s (%zu samples)\n", s->name, med, o->metric, s->n);
        else
            printf("baseline: %s: median %.6g -> %.6g %s (%+.2f%%)\n", s->name, om, med, o->metric,
                   100.0 * (med / om - 1.0));
    }
    cJSON *hist = cJSON_AddArrayToObject(doc, "history");
    cJSON_AddItemToArray(hist, entry);
    const cJSON *oh, *old_hist = prev ? cJSON_GetObjectItemCaseSensitive(prev, "history") : NULL;
    int kept = 1;
    cJSON_ArrayForEach(oh, old_hist)
    {
        if (kept++ >= PERF_BASELINE_HISTORY)
            break;
        cJSON_AddItemToArray(hist, cJSON_Duplicate(oh, 1));
    }
    cJSON_Delete(prev);
    st = bg_json_write_atomic(o->out, doc);
    cJSON_Delete(doc);
    if (st == BG_OK)
        printf("baseline: wrote %s (host %s, %zu benchmarks, reason: %s)\n", o->out, o->host_key,
               set->n, o->reason);
    return st;
}
