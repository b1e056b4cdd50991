/* merge_nan.c — agree.nan.<runner>.<host> of bg-report --merge
 * (merge_model.h, docs/cross-host.md). */
#define _POSIX_C_SOURCE 200809L
#include "merge_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_json.h"

/* One nan table of one host (a nan-check run: runner, context, MXCSR modes;
 * its summary check's details, never its test name, since 2026-12-01): the
 * summary check and the names of its deviation groups ("<verdict> <rule>
 * (<detail>)" and known lines not seen). */
typedef struct ntable {
    const cJSON *summary;
    const char *test, *runner, *version;
    char context[300]; /* the context, "<context>_all_modes" for --modes all */
    int from_name;     /* 1: results without details.modes: context read from the test name */
    mg_strset groups;
} ntable;

typedef struct nhost {
    ntable *t;
    int n;
} nhost;

static int is_nan_summary(const cJSON *c)
{
    const char *name = bg_json_str(c, "name"), *test = bg_json_str(c, "test");
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(c, "details");
    return mg_starts(name, "nan.") && test && !strcmp(name, test) && bg_json_str(d, "runner") &&
           bg_json_str(d, "context");
}

static void nan_tables(const mhost *h, nhost *out)
{
    memset(out, 0, sizeof *out);
    const cJSON *c;
    cJSON_ArrayForEach(c, h->checks) {
        const char *v = mg_verdict(c);
        if (!is_nan_summary(c) || !strcmp(v, "skip") || !strcmp(v, "inconclusive"))
            continue;
        ntable *bigger = realloc(out->t, (size_t)(out->n + 1) * sizeof *bigger);
        if (!bigger)
            return;
        out->t = bigger;
        ntable *t = &out->t[out->n++];
        memset(t, 0, sizeof *t);
        const cJSON *d = cJSON_GetObjectItemCaseSensitive(c, "details");
        t->summary = c;
        t->test = bg_json_str(c, "test");
        t->runner = bg_json_str(d, "runner");
        /* two tables may run one context in other MXCSR modes (main_thread,
         * main_thread --modes all: the known lists' main_thread_all_modes) */
        const char *ctx = bg_json_str(d, "context"), *modes = bg_json_str(d, "modes");
        t->from_name = !modes; /* older nan-check: the test's last part, as before */
        snprintf(t->context, sizeof t->context, "%s%s", modes ? ctx : strrchr(t->test, '.') + 1,
                 modes && !strcmp(modes, "all") ? "_all_modes" : "");
        t->version = bg_json_str(d, "runner_version");
        t->version = t->version ? t->version : "?";
    }
    cJSON_ArrayForEach(c, h->checks) {
        const char *test = bg_json_str(c, "test"), *name = bg_json_str(c, "name");
        /* a group check is named <test>.<group> (anything else is not one) */
        if (!test || !name || !mg_starts(name, test) || name[strlen(test)] != '.')
            continue;
        for (int i = 0; i < out->n; i++) {
            if (strcmp(out->t[i].test, test))
                continue;
            char g[700];
            snprintf(g, sizeof g, "%s %s", mg_verdict(c), name + strlen(test) + 1);
            mg_strset_add(&out->t[i].groups, g);
        }
    }
    for (int i = 0; i < out->n; i++)
        mg_strset_sort(&out->t[i].groups);
}

static void nhost_free(nhost *nh)
{
    for (int i = 0; i < nh->n; i++)
        mg_strset_free(&nh->t[i].groups);
    free(nh->t);
}

/* The table of nh with t's runner and context, or NULL. */
static const ntable *nan_find(const nhost *nh, const ntable *t)
{
    for (int i = 0; i < nh->n; i++)
        if (!strcmp(nh->t[i].runner, t->runner) && !strcmp(nh->t[i].context, t->context))
            return &nh->t[i];
    return NULL;
}

/* details.notes of agree.nan.<runner>.<host>: a host of a or b (NULL) whose
 * tables of runner r lack details.modes (results written before 2026-12-01). */
static void note_from_name(cJSON *d, const nhost *a, const mhost *ha, const nhost *b, const mhost *hb,
                           const char *r)
{
    const nhost *nh[2] = {a, b};
    const mhost *h[2] = {ha, hb};
    for (int j = 0; j < 2 && nh[j]; j++)
        for (int k = 0; k < nh[j]->n; k++)
            if (!strcmp(nh[j]->t[k].runner, r) && nh[j]->t[k].from_name) {
                char note[700];
                snprintf(note, sizeof note, "%s: nan checks without details.modes (results.json from a "
                         "nan-check before 2026-12-01): context read from the test name", h[j]->label);
                cJSON *notes = cJSON_GetObjectItemCaseSensitive(d, "notes");
                if (!notes)
                    notes = cJSON_AddArrayToObject(d, "notes");
                cJSON_AddItemToArray(notes, cJSON_CreateString(note));
                break;
            }
}

/* The version of runner on nh, or NULL when it did not run there. */
static const char *nan_version(const nhost *nh, const char *runner)
{
    for (int i = 0; i < nh->n; i++)
        if (!strcmp(nh->t[i].runner, runner))
            return nh->t[i].version;
    return NULL;
}

/* The first group in a that b lacks, or NULL. */
static const char *group_missing(const mg_strset *a, const mg_strset *b)
{
    for (int i = 0; i < a->n; i++)
        if (!mg_strset_has(b, a->s[i]))
            return a->s[i];
    return NULL;
}

/* Checks runner r on host i: its own verdicts against the golden fixture,
 * then context by context against ref (NULL: none with the same version). */
static void nan_runner_host(merge *m, const nhost *nh, const char *r, int i, int ref)
{
    const mhost *h = &m->h[i], *rh = ref >= 0 ? &m->h[ref] : NULL;
    const nhost *a = &nh[i];
    const char *ver = nan_version(a, r);
    char name[600], e[2400] = "", o[2400] = "", buf[600], rv[400];
    /* "qemu-x86_64 version 7.2.22 (...)": the version line names its runner */
    snprintf(rv, sizeof rv, "%s%s%s", mg_starts(ver, r) ? "" : r, mg_starts(ver, r) ? "" : " ", ver);
    int problems = 0, compared = 0;
    cJSON *d = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "runner", r);
    cJSON_AddStringToObject(d, "runner_version", ver);
    cJSON *pl = cJSON_AddArrayToObject(d, "problems");
    for (int k = 0; k < a->n; k++) {
        const ntable *t = &a->t[k];
        if (strcmp(t->runner, r))
            continue;
        char p[1400] = "";
        if (mg_bad(t->summary)) {
            snprintf(p, sizeof p, "context %s: %s against the golden fixture: %s", t->context,
                     mg_verdict(t->summary),
                     mg_text(cJSON_GetObjectItemCaseSensitive(t->summary, "observed"), buf,
                             sizeof buf));
            /* the other side: the reference host's same table when it is not
             * bad, else the golden fixture (never this host against itself) */
            const ntable *u = rh ? nan_find(&nh[ref], t) : NULL;
            if (!problems && u && !mg_bad(u->summary))
                snprintf(e, sizeof e, "%s: %s, context %s: %s", rh->label, rv, t->context,
                         mg_verdict(u->summary));
            else if (!problems)
                snprintf(e, sizeof e, "the golden fixture: %s, context %s: pass or xfail", rv,
                         t->context);
            if (!problems) {
                snprintf(o, sizeof o, "%s: %s", h->label, p);
            }
        } else if (rh) {
            const ntable *u = nan_find(&nh[ref], t);
            if (!u)
                continue;
            compared++;
            const char *only_a = group_missing(&t->groups, &u->groups);
            const char *only_u = group_missing(&u->groups, &t->groups);
            if (strcmp(mg_verdict(t->summary), mg_verdict(u->summary)) || only_a || only_u) {
                snprintf(p, sizeof p, "context %s: %s %s vs %s %s", t->context, rh->name,
                         mg_verdict(u->summary), h->name, mg_verdict(t->summary));
                if (!problems) {
                    snprintf(e, sizeof e, "%s: %s, context %s: %s%s%s", rh->label, rv, t->context, mg_verdict(u->summary), only_u ? ", deviation group " : "",
                             only_u ? only_u : "");
                    snprintf(o, sizeof o, "%s: %s%s%s%s", h->label, mg_verdict(t->summary),
                             only_a ? ", deviation group " : "", only_a ? only_a : "",
                             only_u && !only_a ? ", without that group" : "");
                }
            }
        }
        if (*p) {
            cJSON_AddItemToArray(pl, cJSON_CreateString(p));
            problems++;
        }
    }
    if (problems > 1) {
        size_t l = strlen(o);
        snprintf(o + l, sizeof o - l, " (and %d more context%s)", problems - 1,
                 problems == 2 ? "" : "s");
    }
    if (!problems) {
        snprintf(e, sizeof e, "%s: no deviation outside the golden fixture and known list%s%s",
                 rv, rh ? "; the same table as " : "", rh ? rh->label : "");
        if (rh)
            snprintf(o, sizeof o, "%s: %d context%s equal", h->label, compared,
                     compared == 1 ? "" : "s");
        else {
            /* other hosts may have run this runner at another version (native:
             * another kernel): named, not "no other host ran native" */
            char others[1200] = "", same[800] = "";
            size_t ol = 0, sl = 0;
            for (int j = 0; j < m->n; j++) {
                const char *vj = j == i ? NULL : nan_version(&nh[j], r);
                if (vj && !strcmp(vj, ver) && sl < sizeof same)
                    sl += (size_t)snprintf(same + sl, sizeof same - sl, "%s%s", sl ? ", " : "",
                                           m->h[j].label);
                else if (vj && ol < sizeof others)
                    ol += (size_t)snprintf(others + ol, sizeof others - ol, "%s%s %s", ol ? ", " : "",
                                           m->h[j].label, vj);
            }
            if (*same) /* the first host of a version: the others compare against it */
                snprintf(o, sizeof o, "%s: as expected (the reference of %s, the same %s version)",
                         h->label, same, r);
            else if (*others)
                snprintf(o, sizeof o, "%s: as expected (not compared: the other hosts ran another %s "
                         "version: %s)", h->label, r, others);
            else
                snprintf(o, sizeof o, "%s: as expected (no other host ran %s)", h->label, r);
        }
    }
    if (rh)
        cJSON_AddStringToObject(d, "reference_host", rh->name);
    note_from_name(d, a, h, rh ? &nh[ref] : NULL, rh, r);
    snprintf(name, sizeof name, "agree.nan.%s.%s", r, h->slug);
    mg_add_check(m, name, problems ? BG_FAIL : BG_PASS, e, o, d, rh, h, "nan");
}

void mg_agree_nan(merge *m)
{
    nhost *nh = calloc((size_t)m->n, sizeof *nh);
    if (!nh)
        return;
    mg_strset runners = {0};
    for (int i = 0; i < m->n; i++) {
        nan_tables(&m->h[i], &nh[i]);
        for (int k = 0; k < nh[i].n; k++)
            mg_strset_add(&runners, nh[i].t[k].runner);
    }
    mg_strset_sort(&runners);
    for (int r = 0; r < runners.n; r++) {
        for (int i = 0; i < m->n; i++) {
            const char *ver = nan_version(&nh[i], runners.s[r]);
            if (!ver)
                continue;
            /* the reference: the first other host with the same runner version */
            int ref = -1;
            for (int j = 0; j < i && ref < 0; j++) {
                const char *vj = nan_version(&nh[j], runners.s[r]);
                if (vj && !strcmp(vj, ver))
                    ref = j;
            }
            nan_runner_host(m, nh, runners.s[r], i, ref);
        }
    }
    mg_strset_free(&runners);
    for (int i = 0; i < m->n; i++)
        nhost_free(&nh[i]);
    free(nh);
}
