/* perf_budget.c — see perf_budget.h. */
#include "perf_budget.h"
#include "perf_gates.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "buildgate/bg_json.h"

static const perf_budget builtin = {0.05, 0.01, 0.95, 0.002, 0.05, 5, 2000, 2, 20000, "real_time", 1, 0.002, 240, 60, 3,
                                    2000, -1};

/* A count field: fallback when absent, -1 (which invalid() rejects) when it
 * is not a whole number in [0, INT_MAX] (1e400 or -1 cast to int is undefined). */
static int int_field(const cJSON *o, const char *key, int fallback);

/* The numeric keys of a budget, each read into the perf_budget member of the
 * same name: NUM a number, INT a whole count.  The one list both apply()
 * (what is read) and budgets_known_keys() (what is accepted) expand. */
#define BUDGET_FIELDS(NUM, INT) NUM(band) NUM(alpha) NUM(level) NUM(ir_band) NUM(cycles_band) \
    NUM(min_time) INT(min_repetitions) INT(resamples) INT(max_reruns) INT(ir_iterations)        \
    INT(ir_min_iterations) NUM(seq_time_cap) INT(seq_max_pairs) INT(seq_looks) NUM(paired_band)

static int int_field(const cJSON *o, const char *key, int fallback)
{
    uint64_t u;
    if (!cJSON_GetObjectItemCaseSensitive(o, key))
        return fallback;
    return bg_json_u64(o, key, &u) && u <= INT_MAX ? (int)u : -1;
}

static void apply(const cJSON *o, perf_budget *b, int allow_metric)
{
    if (!cJSON_IsObject(o))
        return;
#define APPLY_NUM(k) b->k = bg_json_num(o, #k, b->k);
#define APPLY_INT(k) b->k = int_field(o, #k, b->k);
    BUDGET_FIELDS(APPLY_NUM, APPLY_INT)
#undef APPLY_NUM
#undef APPLY_INT
    const char *m = allow_metric ? bg_json_str(o, "metric") : NULL;
    if (m)
        snprintf(b->metric, sizeof b->metric, "%s", m);
}

static const char *invalid(const perf_budget *b)
{
    if (!(b->band > 0 && b->band < 1))
        return "band must be in (0, 1)";
    if (!(b->ir_band > 0 && b->ir_band < 1))
        return "ir_band must be in (0, 1)";
    if (!(b->cycles_band > 0 && b->cycles_band < 1))
        return "cycles_band must be in (0, 1)";
    if (b->paired_band != -1 && !(b->paired_band > 0 && b->paired_band < 1))
        return "paired_band must be in (0, 1)";
    if (!(b->alpha > 0 && b->alpha <= 0.5))
        return "alpha must be in (0, 0.5]";
    if (!(b->level > 0.5 && b->level < 1))
        return "level must be in (0.5, 1)";
    if (b->min_repetitions < 2)
        return "min_repetitions must be a whole number >= 2";
    if (b->resamples < 100)
        return "resamples must be a whole number >= 100";
    if (b->max_reruns < 0 || b->max_reruns > 10)
        return "max_reruns must be in 0..10";
    if (b->ir_iterations < 2)
        return "ir_iterations must be a whole number >= 2";
    if (b->ir_min_iterations < 2)
        return "ir_min_iterations must be a whole number >= 2";
    if (b->ir_iterations < b->ir_min_iterations)
        return "ir_iterations must be >= ir_min_iterations (the benchmark's floor: set both)";
    if (!(b->min_time > 0 && b->min_time <= 60))
        return "min_time must be in (0, 60] seconds";
    if (b->seq_looks < 0 || b->seq_looks > 10)
        return "seq_looks must be in 0..10";
    if (b->seq_max_pairs < 2 || b->seq_max_pairs > 200)
        return "seq_max_pairs must be in 2..200";
    if (!(b->seq_time_cap > 0 && b->seq_time_cap <= 3600))
        return "seq_time_cap must be in (0, 3600] seconds";
    return NULL;
}

long perf_name_match(const char *pattern, const char *name)
{
    const char *p = pattern, *n = name;
    while (*p) {
        int star = p[0] == '*' && (p == pattern || p[-1] == '/') && (p[1] == '/' || p[1] == '\0');
        if (star) {
            if (!*n || *n == '/')
                return -1; /* a segment is never empty */
            while (*n && *n != '/')
                n++;
            p++;
        } else if (*p++ != *n++) {
            return -1;
        }
    }
    return (long)(n - name);
}

void perf_budget_for(const cJSON *budgets, const char *name, perf_budget *b)
{
    *b = builtin;
    if (!budgets)
        return;
    apply(cJSON_GetObjectItemCaseSensitive(budgets, "defaults"), b, 1);
    const cJSON *best = NULL, *e;
    size_t best_len = 0;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(budgets, "benchmarks"))
    {
        size_t k = strlen(e->string);
        if (perf_name_match(e->string, name) >= 0 && (!best || k > best_len)) {
            best = e;
            best_len = k;
        }
    }
    apply(best, b, 0);
    b->lower_better = perf_budgets_lower_better(budgets);
}

const char *perf_budgets_retired(const cJSON *budgets, const char *name)
{
    const cJSON *r = budgets ? cJSON_GetObjectItemCaseSensitive(budgets, "retired") : NULL;
    return r ? bg_json_str(r, name) : NULL;
}

/* Why the "retired" member is invalid (where: the entry's name), or NULL. */
static const char *invalid_retired(const cJSON *doc, const char **where)
{
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(doc, "retired"), *e;
    *where = "retired";
    if (!r)
        return NULL;
    if (!cJSON_IsObject(r))
        return "must be an object: {\"<benchmark name>\": \"<reason>\"}";
    cJSON_ArrayForEach(e, r)
    {
        const char *v = cJSON_GetStringValue(e);
        const char *p = v;
        while (p && (*p == ' ' || *p == '\t'))
            p++;
        if (!p || !*p) {
            *where = e->string;
            return "a retirement needs a reason: \"retired\": {\"<benchmark name>\": \"<why it is gone>\"}";
        }
    }
    return NULL;
}

const char *perf_budgets_metric(const cJSON *budgets)
{
    const cJSON *d = budgets ? cJSON_GetObjectItemCaseSensitive(budgets, "defaults") : NULL;
    const char *m = d ? bg_json_str(d, "metric") : NULL;
    return m ? m : builtin.metric;
}

int perf_metric_known_direction(const char *metric)
{
    static const char *const lower[] = {"real_time", "cpu_time"},
                             *const higher[] = {"items_per_second", "bytes_per_second"};
    for (size_t i = 0; i < sizeof lower / sizeof *lower; i++)
        if (strcmp(metric, lower[i]) == 0)
            return 1;
    for (size_t i = 0; i < sizeof higher / sizeof *higher; i++)
        if (strcmp(metric, higher[i]) == 0)
            return 0;
    return -1;
}

int perf_budgets_lower_better(const cJSON *budgets)
{
    const cJSON *d = budgets ? cJSON_GetObjectItemCaseSensitive(budgets, "defaults") : NULL;
    const cJSON *h = d ? cJSON_GetObjectItemCaseSensitive(d, "higher_is_better") : NULL;
    if (cJSON_IsBool(h))
        return !cJSON_IsTrue(h);
    return perf_metric_known_direction(perf_budgets_metric(budgets)) != 0; /* -1: refused at load */
}

/* Why the metric's direction is unusable (into buf), or NULL: a user counter
 * without "higher_is_better", a declaration that is no boolean, is not in
 * "defaults", or contradicts the known direction (perf_budget.h). */
static const char *invalid_direction(const cJSON *doc, const char **where, char *buf, size_t n)
{
    const cJSON *e, *d = cJSON_GetObjectItemCaseSensitive(doc, "defaults");
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(doc, "benchmarks"))
        if (cJSON_GetObjectItemCaseSensitive(e, "higher_is_better")) {
            *where = e->string;
            return "\"higher_is_better\" is set in \"defaults\" only, beside \"metric\"";
        }
    *where = "defaults";
    const char *m = perf_budgets_metric(doc);
    const cJSON *h = cJSON_IsObject(d) ? cJSON_GetObjectItemCaseSensitive(d, "higher_is_better") : NULL;
    int known = perf_metric_known_direction(m);
    if (h && !cJSON_IsBool(h))
        return "\"higher_is_better\" must be true or false";
    if (!h && known < 0) {
        snprintf(buf, n,
                 "metric \"%s\" is a user counter: Google Benchmark's JSON does not record its "
                 "direction (kIsRate, kInvert), so declare it: \"higher_is_better\": true (a rate) "
                 "or false (a time or a cost)",
                 m);
        return buf;
    }
    if (h && known >= 0 && cJSON_IsTrue(h) == known) {
        snprintf(buf, n, "\"higher_is_better\": %s contradicts metric \"%s\", which is %s-is-better",
                 known ? "true" : "false", m, known ? "lower" : "higher");
        return buf;
    }
    return NULL;
}

/* The keys the gate reads, at each level of the file (perf_budget.h,
 * perf_variants.h): any other is a misspelling that would be ignored. */
#define BUDGET_KEY(k) #k,
#define BUDGET_KEYS BUDGET_FIELDS(BUDGET_KEY, BUDGET_KEY)

static bg_status budgets_known_keys(const cJSON *doc, const char *path)
{
    static const char *const top[] = {"schema", "defaults", "benchmarks", "retired", "gates", "variant_table", NULL},
                             *const defaults[] = {BUDGET_KEYS "metric", "higher_is_better", NULL},
                             /* metric, higher_is_better: refused there with their own reason below */
                             *const entry[] = {BUDGET_KEYS "why", "metric", "higher_is_better", NULL},
                             *const table[] = {"margin", "alpha", "gates", NULL};
    bg_status st = bg_json_known_keys(doc, top, path, "the top level");
    if (st == BG_OK)
        st = bg_json_known_keys(cJSON_GetObjectItemCaseSensitive(doc, "defaults"), defaults, path, "defaults");
    if (st == BG_OK)
        st = bg_json_known_keys(cJSON_GetObjectItemCaseSensitive(doc, "variant_table"), table, path,
                                "variant_table");
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(doc, "benchmarks")) {
        char where[300];
        snprintf(where, sizeof where, "benchmarks \"%s\"", e->string);
        if (st == BG_OK)
            st = bg_json_known_keys(e, entry, path, where);
    }
    return st;
}

/* "\"<key>\" is given twice" in buf for the first key of object o named twice
 * (cJSON keeps both; the reader would see only the first), else NULL. */
static const char *duplicate_key(const cJSON *o, char *buf, size_t n)
{
    for (const cJSON *a = o ? o->child : NULL; a; a = a->next)
        for (const cJSON *b = a->next; b; b = b->next)
            if (a->string && b->string && strcmp(a->string, b->string) == 0) {
                snprintf(buf, n, "\"%s\" is given twice", a->string);
                return buf;
            }
    return NULL;
}

/* Why one budget object (defaults or a benchmarks entry) has a value of the
 * wrong type, or NULL; buf holds the text.  A wrong type must not fall back to
 * the default silently (a band of "0.01" would judge at the default 5 %). */
static const char *budget_types(const cJSON *o, char *buf, size_t n)
{
    const cJSON *v;
    const char *d;
    if (!cJSON_IsObject(o))
        return "must be an object of budget keys";
    if ((d = duplicate_key(o, buf, n)))
        return d;
#define TYPE_NUM(k)                                                                   \
    if ((v = cJSON_GetObjectItemCaseSensitive(o, #k)) && !cJSON_IsNumber(v)) {        \
        snprintf(buf, n, "\"%s\" must be a number (e.g. %s: 0.05), not %s", #k, #k, \
                 cJSON_IsString(v) ? "a string" : "another type");                   \
        return buf;                                                                   \
    }
#define TYPE_INT(k) /* int_field gives -1 for anything but a whole number: invalid() says so */
    BUDGET_FIELDS(TYPE_NUM, TYPE_INT)
#undef TYPE_NUM
#undef TYPE_INT
    if ((v = cJSON_GetObjectItemCaseSensitive(o, "metric")) && !cJSON_IsString(v))
        return "\"metric\" must be a string (a Google Benchmark field or counter name)";
    if ((v = cJSON_GetObjectItemCaseSensitive(o, "why")) && !cJSON_IsString(v))
        return "\"why\" must be a string";
    return NULL;
}

/* Why the file's shape is wrong (its levels' types, duplicate keys), or NULL;
 * *where names the place. */
static const char *budgets_shape(const cJSON *doc, const char **where, char *buf, size_t n)
{
    const char *d;
    *where = "the top level";
    if (!cJSON_IsObject(doc))
        return "must be a JSON object";
    if ((d = duplicate_key(doc, buf, n)))
        return d;
    static const char *const objects[] = {"defaults", "benchmarks", "variant_table", NULL};
    for (int i = 0; objects[i]; i++) {
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(doc, objects[i]);
        if (o && !cJSON_IsObject(o)) {
            snprintf(buf, n, "\"%s\" must be an object", objects[i]);
            return buf;
        }
    }
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(doc, "defaults"), *e;
    const char *why;
    if (o && (why = budget_types(o, buf, n))) {
        *where = "defaults";
        return why;
    }
    o = cJSON_GetObjectItemCaseSensitive(doc, "benchmarks");
    if ((d = duplicate_key(o, buf, n))) {
        *where = "benchmarks";
        return d;
    }
    cJSON_ArrayForEach(e, o)
    {
        if ((why = budget_types(e, buf, n))) {
            *where = e->string;
            return why;
        }
    }
    return NULL;
}

bg_status perf_budgets_load(const char *path, cJSON **out)
{
    *out = NULL;
    if (!path)
        return BG_OK;
    cJSON *doc = NULL;
    bg_status st = bg_json_load(path, "budgets", &doc);
    if (st != BG_OK)
        return st;
    if (bg_json_num(doc, "schema", 0) != 1) {
        cJSON_Delete(doc);
        return bg_fail(BG_E_PARSE, "budgets", "%s: \"schema\" must be 1", path);
    }
    char shape[200];
    const char *swhere, *swhy = budgets_shape(doc, &swhere, shape, sizeof shape);
    if (swhy) {
        st = bg_fail(BG_E_PARSE, "budgets", "%s: %s: %s", path, swhere, swhy);
        cJSON_Delete(doc);
        return st;
    }
    st = budgets_known_keys(doc, path);
    if (st != BG_OK) {
        cJSON_Delete(doc);
        return st;
    }
    perf_budget b = builtin;
    apply(cJSON_GetObjectItemCaseSensitive(doc, "defaults"), &b, 1);
    const char *why = invalid(&b);
    const cJSON *e;
    const char *where = "defaults";
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(doc, "benchmarks"))
    {
        if (why)
            break;
        perf_budget bb = b;
        apply(e, &bb, 0);
        why = cJSON_GetObjectItemCaseSensitive(e, "metric")
                  ? "\"metric\" is set in \"defaults\" only (one metric per run)"
                  : invalid(&bb);
        where = e->string;
    }
    if (!why)
        why = invalid_retired(doc, &where);
    if (!why)
        why = perf_gates_invalid(doc, &where);
    char dir[320];
    if (!why)
        why = invalid_direction(doc, &where, dir, sizeof dir);
    if (why) {
        /* where points into doc: print before freeing it */
        st = bg_fail(BG_E_PARSE, "budgets", "%s: %s: %s", path, where, why);
        cJSON_Delete(doc);
        return st;
    }
    *out = doc;
    return BG_OK;
}
