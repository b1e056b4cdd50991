/* merge_model.c — helpers of bg-report --merge (merge_model.h). */
#define _POSIX_C_SOURCE 200809L
#include "merge_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_json.h"

int mg_starts(const char *s, const char *prefix)
{
    return s && strncmp(s, prefix, strlen(prefix)) == 0;
}

int mg_ends(const char *s, const char *suffix)
{
    size_t l = strlen(s), sl = strlen(suffix);
    return l >= sl && strcmp(s + l - sl, suffix) == 0;
}

const char *mg_verdict(const cJSON *c)
{
    const char *v = bg_json_str(c, "verdict");
    return v ? v : "?";
}

/* pass or fail: a check that ran (skip/inconclusive compare nothing). */
int mg_ran(const cJSON *c)
{
    const char *v = mg_verdict(c);
    return !strcmp(v, "pass") || !strcmp(v, "fail");
}

int mg_bad(const cJSON *c)
{
    bg_verdict v;
    return bg_verdict_parse(mg_verdict(c), &v) == BG_OK && bg_verdict_is_bad(v);
}

/* A JSON value as text into buf: strings as they are, the rest printed. */
const char *mg_text(const cJSON *v, char *buf, size_t n)
{
    if (cJSON_IsString(v))
        return v->valuestring;
    char *p = v ? cJSON_PrintUnformatted(v) : NULL;
    snprintf(buf, n, "%s", p ? p : "null");
    free(p);
    return buf;
}

const cJSON *mg_find_check(const mhost *h, const char *name)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, h->checks) {
        const char *cn = bg_json_str(c, "name");
        if (cn && !strcmp(cn, name))
            return c;
    }
    return NULL;
}


int mg_strset_has(const mg_strset *ss, const char *s)
{
    for (int i = 0; i < ss->n; i++)
        if (!strcmp(ss->s[i], s))
            return 1;
    return 0;
}

void mg_strset_add(mg_strset *ss, const char *s)
{
    if (mg_strset_has(ss, s))
        return;
    if (ss->n == ss->cap) {
        int cap = ss->cap ? ss->cap * 2 : 32;
        char **bigger = realloc(ss->s, (size_t)cap * sizeof *bigger);
        if (!bigger)
            return;
        ss->s = bigger;
        ss->cap = cap;
    }
    char *d = strdup(s);
    if (d)
        ss->s[ss->n++] = d;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void mg_strset_sort(mg_strset *ss)
{
    if (ss->n > 1)
        qsort(ss->s, (size_t)ss->n, sizeof *ss->s, cmp_str);
}

void mg_strset_free(mg_strset *ss)
{
    for (int i = 0; i < ss->n; i++)
        free(ss->s[i]);
    free(ss->s);
    memset(ss, 0, sizeof *ss);
}

/* Appends one agree check.  hosts: the one or two hosts it is about (the
 * reference first); col: the matrix column (digest, aes, nan, commit). */
void mg_add_check(merge *m, const char *name, bg_verdict v, const char *expected,
                  const char *observed, cJSON *details, const mhost *ref, const mhost *h,
                  const char *col)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "suite", MG_SUITE);
    cJSON_AddStringToObject(o, "name", name);
    cJSON_AddStringToObject(o, "test", "agree");
    cJSON_AddStringToObject(o, "verdict", bg_verdict_name(v));
    cJSON_AddStringToObject(o, "expected", expected);
    cJSON_AddStringToObject(o, "observed", observed);
    if (!details)
        details = cJSON_CreateObject();
    cJSON *hs = cJSON_AddArrayToObject(details, "hosts");
    if (ref)
        cJSON_AddItemToArray(hs, cJSON_CreateString(ref->name));
    if (h)
        cJSON_AddItemToArray(hs, cJSON_CreateString(h->name));
    cJSON *mx = cJSON_AddObjectToObject(details, "matrix");
    cJSON_AddStringToObject(mx, "table", "Cross-host agreement");
    cJSON_AddStringToObject(mx, "row", h ? h->name : ref ? ref->name : "all hosts");
    cJSON_AddStringToObject(mx, "col", col);
    cJSON_AddItemToObject(o, "details", details);
    cJSON_AddItemToArray(m->checks, o);
}

const mhost *mg_other_good(const merge *m, const mhost *h, const char *name, const cJSON **c)
{
    for (int j = 0; j < m->n; j++) {
        const cJSON *x = &m->h[j] == h ? NULL : mg_find_check(&m->h[j], name);
        if (x && mg_ran(x) && !mg_bad(x)) {
            *c = x;
            return &m->h[j];
        }
    }
    return NULL;
}

const char *mg_commit_of(const mhost *h)
{
    const char *c = bg_json_str(cJSON_GetObjectItemCaseSensitive(h->doc, "run"), "commit");
    return c && *c && strcmp(c, "unknown") ? c : NULL;
}
