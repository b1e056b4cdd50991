/* nan_known.c — see nan_known.h. */
#define _POSIX_C_SOURCE 200809L
#include "nan_known.h"

#include <errno.h>
#include <stddef.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buildgate/bg_fixtures.h"
#include "buildgate/bg_known.h"
#include "buildgate/bg_runner.h"
#include "nan_cases.h"
#include "nan_context_rules.h"
#include "nan_family.h"
#include "nan_faults.h"

/* 1 when context matches one of the comma-separated fnmatch(3) patterns;
 * the all-modes run (NAN_CONTEXT_ALL_MODES) also takes main_thread's lines. */
static int context_matches(const char *patterns, const char *context)
{
    if (strcmp(context, NAN_CONTEXT_ALL_MODES) == 0 && context_matches(patterns, "main_thread"))
        return 1;
    char copy[256];
    snprintf(copy, sizeof copy, "%s", patterns);
    char *save = NULL;
    for (char *p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save))
        if (fnmatch(p, context, 0) == 0)
            return 1;
    return 0;
}

/* Rule ids (nan_classify.h) and context names (nan_contexts): a line naming
 * anything else could never match, so it is refused instead of ignored. */
static const char *const known_rules[] = {
    "nan-operand-priority", "default-nan", "snan-quieting", "nan-propagation", "daz-ftz",
    "rounding", "value", "minmax", "integer-indefinite", "compare-mask", "comis-eflags",
    "eflags-clobbered", "status-flag", "upper-lanes", "source-modified", "mxcsr-readback",
    "handler-mxcsr", "mxcsr-inheritance", "context-fact", "trap-not-delivered", "trap-si-code",
    "trap-handler-mxcsr", "trap-saved-status", "probe-failed", "op-missing", "bitwise", "sign-mask", "mxcsr-initial",
    /* x87 (nan_x87.h, issue 13 item 4) */
    "unsupported-encoding", "precision-control", "x87-status", "x87-control", "fcomi-eflags",
    "handler-x87-cw", "x87-cw-inheritance", "x87-cw-readback", "x87-cw-initial",
    "ymm-upper", "vex-lig",
    "sequence-state", NULL,
};

static int rule_known(const char *rule)
{
    for (int i = 0; known_rules[i]; i++)
        if (!strcmp(rule, known_rules[i]))
            return 1;
    for (int i = 0; nan_fault_rules[i]; i++) /* context faults (nan_faults.h) */
        if (!strcmp(rule, nan_fault_rules[i]))
            return 1;
    return 0;
}

/* 1 when every comma-separated pattern matches at least one known context. */
static int contexts_known(const char *patterns)
{
    char copy[256];
    snprintf(copy, sizeof copy, "%s", patterns);
    char *save = NULL;
    for (char *p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
        int hit = 0;
        for (int i = 0; nan_contexts[i] && !hit; i++)
            hit = fnmatch(p, nan_contexts[i], 0) == 0;
        hit = hit || fnmatch(p, NAN_CONTEXT_ALL_MODES, 0) == 0;
        hit = hit || fnmatch(p, NAN_CONTEXT_SEQUENCES, 0) == 0;
        if (!hit)
            return 0;
    }
    return 1;
}

/* 1 when item is something a deviation group can show: an op, an op family,
 * an MXCSR mode (main_thread phases), a phase or fact of a context rule, a
 * context, a trapped exception (check_traps: IE, ZE) or a row of the fault
 * table (nan_faults.def). */
static int item_known(const char *item)
{
    if (nan_op_find(item) >= 0 || nan_family_known(item) || nan_mode_find(item) >= 0 ||
        nan_context_known(item) || strcmp(item, "IE") == 0 || strcmp(item, "ZE") == 0 ||
        strcmp(item, NAN_CONTEXT_SEQUENCES) == 0 || nan_fault_find(item) >= 0)
        return 1;
    for (int i = 0; nan_contexts[i]; i++) {
        const nan_context_rule *r;
        int n = nan_context_rules(nan_contexts[i], &r);
        for (int j = 0; j < n; j++)
            if ((r[j].phase && strcmp(r[j].phase, item) == 0) || bg_known_in_list(r[j].facts, item))
                return 1;
    }
    return 0;
}

/* NULL when every comma-separated item of ops is known, else the first
 * unknown one copied into bad[n]. */
static const char *ops_unknown(const char *ops, char *bad, size_t n)
{
    if (strcmp(ops, "-") == 0) /* not measured yet: covers nothing */
        return NULL;
    for (const char *p = ops;;) {
        size_t len = strcspn(p, ",");
        snprintf(bad, n, "%.*s", (int)len, p);
        if (!*bad || !item_known(bad))
            return bad;
        if (!p[len])
            return NULL;
        p += len + 1;
    }
}

/* 1 when the comma-separated versions of list hold one equal to v. */
static int observed_has(const char *list, const int v[3])
{
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        char t[40];
        int w[3];
        snprintf(t, sizeof t, "%.*s", (int)(len < sizeof t ? len : sizeof t - 1), p);
        if (bg_version_parse(t, w) && bg_version_cmp(v, w) == 0)
            return 1;
        p += len;
        p += *p == ',';
    }
    return 0;
}

/* 1 when the comma-separated items of a and b share one. */
static int items_overlap(const char *a, const char *b)
{
    for (const char *p = a; *p;) {
        size_t len = strcspn(p, ",");
        char t[64];
        snprintf(t, sizeof t, "%.*s", (int)(len < sizeof t ? len : sizeof t - 1), p);
        if (bg_known_in_list(b, t))
            return 1;
        p += len;
        p += *p == ',';
    }
    return 0;
}

/* kd holds the lines of the context, each with side = 1 when its range holds
 * version.  Keeps the ones that apply (nan_known.h "Brackets"): by range, or,
 * when the version is not measured and no range of the file holds it, by its
 * bracket (side = 1 lo / 2 hi / 3 both).  Fills measured, lo, hi, inferred. */
static bg_status select_lines(nan_known *kd, const char *version, int any_range)
{
    int v[3], have_v = bg_version_parse(version, v);
    bg_version_bracket b = {0};
    for (const char *p = kd->measured; *p;) {
        size_t len = strcspn(p, ",");
        char t[40];
        int w[3];
        snprintf(t, sizeof t, "%.*s", (int)(len < sizeof t ? len : sizeof t - 1), p);
        if (bg_version_parse(t, w) && have_v)
            bg_version_bracket_add(&b, v, w);
        p += len;
        p += *p == ',';
    }
    const int *lo = b.lo, *hi = b.hi;
    if (b.have_lo)
        snprintf(kd->lo, sizeof kd->lo, "%d.%d.%d", lo[0], lo[1], lo[2]);
    if (b.have_hi)
        snprintf(kd->hi, sizeof kd->hi, "%d.%d.%d", hi[0], hi[1], hi[2]);
    kd->inferred = have_v && !any_range && bg_version_bracket_ok(&b);
    int k = 0;
    for (int i = 0; i < kd->n; i++) {
        nan_known_line *l = &kd->lines[i];
        if (!kd->inferred) {
            if (l->side)
                kd->lines[k++] = *l;
            continue;
        }
        l->side = (observed_has(l->observed, lo) ? 1 : 0) | (observed_has(l->observed, hi) ? 2 : 0);
    }
    if (!kd->inferred) {
        kd->n = k;
        for (int i = 0; i < kd->n; i++)
            kd->lines[i].side = 0;
        return BG_OK;
    }
    /* a side's line needs a partner on the other side: same rule, detail and a shared op */
    for (int i = 0; i < kd->n; i++) {
        nan_known_line *l = &kd->lines[i];
        int partner = l->side == 3;
        for (int j = 0; j < kd->n && !partner && l->side; j++) {
            const nan_known_line *m = &kd->lines[j];
            partner = (m->side & (3 - l->side)) && strcmp(m->rule, l->rule) == 0 &&
                      strcmp(m->detail, l->detail) == 0 && items_overlap(l->ops, m->ops);
        }
        if (partner)
            kd->lines[k++] = *l;
    }
    kd->n = k;
    return BG_OK;
}

/* Appends ",t" (or "t" first) to out[n] at *o; a list that would not fit stops growing. */
static void list_append(char *out, size_t n, size_t *o, const char *t)
{
    size_t need = strlen(t) + (*o ? 1 : 0);
    if (*o + need + 1 > n)
        return;
    *o += (size_t)snprintf(out + *o, n - *o, "%s%s", *o ? "," : "", t);
}

/* Adds the versions of an observed column to the measured list (ascending,
 * each once; a list longer than the field keeps its first versions). */
static void measured_add(nan_known *kd, const char *observed)
{
    for (const char *p = observed; *p;) {
        size_t len = strcspn(p, ",");
        char t[40];
        int w[3];
        snprintf(t, sizeof t, "%.*s", (int)(len < sizeof t ? len : sizeof t - 1), p);
        p += len;
        p += *p == ',';
        if (!bg_version_parse(t, w) || observed_has(kd->measured, w))
            continue;
        /* insert before the first greater one */
        char out[sizeof kd->measured] = "";
        size_t o = 0;
        int put = 0;
        for (const char *q = kd->measured; *q;) {
            size_t l2 = strcspn(q, ",");
            char u[40];
            int x[3];
            snprintf(u, sizeof u, "%.*s", (int)(l2 < sizeof u ? l2 : sizeof u - 1), q);
            if (!put && bg_version_parse(u, x) && bg_version_cmp(w, x) < 0) {
                list_append(out, sizeof out, &o, t);
                put = 1;
            }
            list_append(out, sizeof out, &o, u);
            q += l2;
            q += *q == ',';
        }
        if (!put)
            list_append(out, sizeof out, &o, t);
        snprintf(kd->measured, sizeof kd->measured, "%s", out);
    }
}

void nan_known_bracket_text(const nan_known *kd, const char *version, char *out, size_t n)
{
    int v[3];
    char vs[40] = "?";
    if (bg_version_parse(version, v))
        snprintf(vs, sizeof vs, "%d.%d.%d", v[0], v[1], v[2]);
    snprintf(out, n, "%s is between measured %s and %s; not measured", vs, kd->lo, kd->hi);
}

int nan_known_unobserved(const nan_known *kd)
{
    for (int i = 0; i < kd->n; i++)
        if (!kd->lines[i].observed[0])
            return kd->lines[i].lineno;
    return 0;
}

/* The suite's columns of a line (bg_known_format.check): contexts, ops, rule
 * (detail is any fnmatch pattern). */
static const char *line_check(void *ctx, char *const *col, char *why, size_t n)
{
    (void)ctx;
    if (!*col[4] || !rule_known(col[4]))
        return "unknown rule (see suites/nan_semantics/check/nan_classify.h)";
    if (!contexts_known(col[2]))
        return "a context pattern matches no context (main_thread, pthread, signal_raise, ..., see "
               "docs/nan_semantics.md)";
    char item[64];
    if (ops_unknown(col[3], item, sizeof item)) {
        snprintf(why, n, "ops column: '%s' is no op, op family or phase name "
                 "(nan_ops.def, nan_family.h; an empty item or a pattern is not allowed)", item);
        return why;
    }
    return NULL;
}

typedef struct load_ctx {
    const bg_known_format *fmt;
    nan_known *kd;
    const char *version, *context;
    int any_range; /* a line (of any context) whose range holds the version */
} load_ctx;

/* Keeps a valid line (bg_known_format.row): lines of other contexts are
 * dropped; of other versions kept until the measured history is known
 * (select_lines). */
static bg_status line_keep(void *ctx, char *const *col, int lineno)
{
    load_ctx *lc = ctx;
    nan_known *kd = lc->kd;
    int in = bg_version_in_range(lc->version ? lc->version : "0", col[1]);
    lc->any_range |= in == 1;
    if (lc->version && !context_matches(col[2], lc->context))
        return BG_OK;
    measured_add(kd, col[7]); /* measured in this context (all lines without a version) */
    nan_known_line *nl = realloc(kd->lines, (size_t)(kd->n + 1) * sizeof *nl);
    if (!nl)
        return BG_E_NOMEM;
    kd->lines = nl;
    nan_known_line *l = &kd->lines[kd->n++];
    memset(l, 0, sizeof *l);
    l->lineno = lineno;
    bg_known_fields(l, col, lc->fmt);
    if (strcmp(l->detail, "-") == 0) /* "-": no detail */
        l->detail[0] = '\0';
    l->side = in; /* select_lines: 1 = the range holds the version */
    return BG_OK;
}

/* Reads path (bg_known_read, the nan format); lines applying to
 * version/context are kept (all of them when version is NULL). */
static bg_status load(const char *path, const char *version, const char *context, int missing_ok,
                      nan_known *kd)
{
    static const char *const names[] = {"runner", "versions", "contexts", "ops",
                                        "rule",   "detail",   "reference", "observed"};
#define NK_FIELD(f) sizeof ((nan_known_line *)0)->f
    static const size_t max[] = {0, NK_FIELD(versions), NK_FIELD(contexts), NK_FIELD(ops),
                                 NK_FIELD(rule), NK_FIELD(detail), NK_FIELD(reference), NK_FIELD(observed)};
#undef NK_FIELD
    static const size_t field[] = {BG_KNOWN_NO_FIELD,
                                   offsetof(nan_known_line, versions),
                                   offsetof(nan_known_line, contexts),
                                   offsetof(nan_known_line, ops),
                                   offsetof(nan_known_line, rule),
                                   offsetof(nan_known_line, detail),
                                   offsetof(nan_known_line, reference),
                                   offsetof(nan_known_line, observed)};
    memset(kd, 0, sizeof *kd);
    snprintf(kd->path, sizeof kd->path, "%s", path);
    load_ctx lc = {NULL, kd, version, context, 0};
    const bg_known_format fmt = {
        NAN_KNOWN_COLUMNS + 1, 1,
        "needs 7 tab-separated columns and an 8th: runner versions contexts ops rule detail reference "
        "observed (a 6-column line of the old format: nan-check --regen-known-ops --migrate)",
        names, max, field, line_check, line_keep, &lc};
    lc.fmt = &fmt;
    bg_status st = bg_known_read(kd->path, missing_ok, &fmt);
    if (st == BG_OK && version)
        st = select_lines(kd, version, lc.any_range);
    if (st != BG_OK)
        nan_known_free(kd);
    return st;
}

bg_status nan_known_load(const char *dir, const char *file, const char *version,
                         const char *context, nan_known *kd)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    return load(path, version ? version : "", context, 1, kd);
}

bg_status nan_known_load_runner(const char *root, const bg_runner *rn, const char *context, nan_known *kd)
{
    char dir[1100], rel[400], path[1600], restore[2000];
    snprintf(dir, sizeof dir, "%s/nan_semantics/known", root);
    snprintf(rel, sizeof rel, "nan_semantics/known/%s", rn->known);
    snprintf(path, sizeof path, "%s/%s", root, rel);
    if (!rn->user && access(path, F_OK) != 0 && errno == ENOENT) {
        bg_fixture_hint(BG_FIXTURE_RESTORE, path, rel, restore, sizeof restore);
        return bg_fail(BG_E_FIXTURE, path, "missing (runner %s reads it): %s (a runner without known "
                       "deviations has a file of comment lines only)", rn->name, restore);
    }
    return nan_known_load(dir, rn->known, rn->version, context, kd);
}

bg_status nan_known_load_all(const char *path, nan_known *kd)
{
    return load(path, NULL, NULL, 0, kd);
}

int nan_known_ops_cover(const char *ops, const char *item)
{
    for (const char *p = ops; *p;) {
        size_t len = strcspn(p, ",");
        char tok[64];
        snprintf(tok, sizeof tok, "%.*s", (int)len, p);
        if (strcmp(tok, item) == 0 || nan_family_has(tok, item))
            return 1;
        p += len;
        p += *p == ',';
    }
    return 0;
}

int nan_known_cover(nan_known *kd, const char *rule, const char *detail, const char *const *items,
                    int n_items, nan_known_line **matched, int max, char *missing, size_t n)
{
    int nm = 0;
    size_t len = 0;
    *missing = '\0';
    for (int i = 0; i < kd->n; i++) {
        nan_known_line *l = &kd->lines[i];
        if (strcmp(l->rule, rule) != 0 || fnmatch(l->detail, detail, 0) != 0)
            continue;
        if (nm < max)
            matched[nm] = l;
        nm++;
        for (int j = 0; j < n_items && !l->used; j++)
            l->used = nan_known_ops_cover(l->ops, items[j]);
    }
    for (int j = 0; j < n_items; j++) {
        /* by range: one line lists it; inferred: a line of each side of the bracket */
        int sides = 0;
        for (int i = 0; i < kd->n && sides != 3; i++) {
            nan_known_line *l = &kd->lines[i];
            if (strcmp(l->rule, rule) == 0 && fnmatch(l->detail, detail, 0) == 0 &&
                nan_known_ops_cover(l->ops, items[j]))
                sides |= kd->inferred ? l->side : 3;
        }
        int covered = sides == 3;
        if (!covered && len + strlen(items[j]) + 2 < n)
            len += (size_t)snprintf(missing + len, n - len, "%s%s", len ? "," : "", items[j]);
    }
    return nm;
}

void nan_known_free(nan_known *kd)
{
    free(kd->lines);
    kd->lines = NULL;
    kd->n = 0;
}
