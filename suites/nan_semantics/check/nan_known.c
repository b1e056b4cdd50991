/* nan_known.c — see nan_known.h. */
#define _POSIX_C_SOURCE 200809L
#include "nan_known.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buildgate/bg_fixtures.h"
#include "buildgate/bg_runner.h"
#include "nan_cases.h"
#include "nan_context_rules.h"
#include "nan_family.h"
#include "nan_faults.h"

static bg_status bad(const char *path, int line, const char *why)
{
    return bg_fail(BG_E_FIXTURE, "nan-check", "known deviations %s:%d: %s", path, line, why);
}

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

/* 1 when s is one of the comma-separated names of list. */
static int in_list(const char *list, const char *s)
{
    size_t n = strlen(s);
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        if (len == n && strncmp(p, s, n) == 0)
            return 1;
        p += len;
        p += *p == ',';
    }
    return 0;
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
            if ((r[j].phase && strcmp(r[j].phase, item) == 0) || in_list(r[j].facts, item))
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

/* Every line's key (runner versions contexts ops rule detail: all columns
 * but the reference) and number, to refuse a duplicate naming both lines. */
typedef struct line_keys {
    char **key;
    int *lineno;
    int n;
} line_keys;

/* 0 and the line recorded; the earlier line's number when it has the same
 * key; -1 out of memory. */
static int key_seen(line_keys *ks, char *const *col, const char *ops, int lineno)
{
    /* the whole key, however long its columns (an ops column may hold 8191
       characters: a fixed buffer would cut it and call two lines the same) */
    size_t len = strlen(col[0]) + strlen(col[1]) + strlen(col[2]) + strlen(ops) + strlen(col[3]) +
                 strlen(col[4]) + 6;
    char *key = malloc(len);
    if (!key)
        return -1;
    snprintf(key, len, "%s\t%s\t%s\t%s\t%s\t%s", col[0], col[1], col[2], ops, col[3], col[4]);
    for (int i = 0; i < ks->n; i++)
        if (strcmp(ks->key[i], key) == 0) {
            free(key);
            return ks->lineno[i];
        }
    char **nk = realloc(ks->key, (size_t)(ks->n + 1) * sizeof *nk);
    if (nk)
        ks->key = nk;
    int *nl = nk ? realloc(ks->lineno, (size_t)(ks->n + 1) * sizeof *nl) : NULL;
    if (!nl) {
        free(key);
        return -1;
    }
    ks->lineno = nl;
    ks->key[ks->n] = key, ks->lineno[ks->n++] = lineno;
    return 0;
}

static void keys_free(line_keys *ks)
{
    for (int i = 0; i < ks->n; i++)
        free(ks->key[i]);
    free(ks->key);
    free(ks->lineno);
}

/* NULL-free check of an observed column: "" (none), or comma-separated
 * versions of digits and dots, each inside the line's range.  Returns 1 and
 * why[n] when it is malformed. */
static int observed_bad(const char *observed, const char *range, char *why, size_t n)
{
    for (const char *p = observed; *p;) {
        size_t len = strcspn(p, ",");
        char v[40];
        snprintf(v, sizeof v, "%.*s", (int)(len < sizeof v ? len : sizeof v - 1), p);
        int parts[3];
        if (!len || len >= sizeof v || strspn(v, "0123456789.") != len || !isdigit((unsigned char)v[0]) ||
            v[len - 1] == '.' || strstr(v, "..") || !bg_version_parse(v, parts)) {
            snprintf(why, n, "observed column: '%.40s' is no version (want e.g. 7.2.22,10.0.13: "
                     "the versions the line was measured on)", v);
            return 1;
        }
        if (bg_version_in_range(v, range) != 1) {
            snprintf(why, n, "observed column: %s is outside the line's versions %.60s", v, range);
            return 1;
        }
        p += len;
        p += *p == ',';
    }
    if (strlen(observed) >= sizeof ((nan_known_line *)0)->observed) {
        snprintf(why, n, "observed column longer than %zu characters",
                 sizeof ((nan_known_line *)0)->observed - 1);
        return 1;
    }
    return 0;
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
        if (in_list(b, t))
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

/* Reads path; lines applying to version/context are kept (all of them when
 * version is NULL). */
static bg_status load(const char *path, const char *file, const char *version, const char *context,
                      int missing_ok, nan_known *kd)
{
    memset(kd, 0, sizeof *kd);
    snprintf(kd->path, sizeof kd->path, "%s", path);
    /* the runner column names the file's tool: its name without .tsv */
    const char *dot = strrchr(file, '.');
    size_t stem = dot ? (size_t)(dot - file) : strlen(file);
    FILE *f = fopen(kd->path, "r");
    if (!f)
        return errno == ENOENT && missing_ok
                   ? BG_OK
                   : bg_fail(BG_E_FIXTURE, "nan-check", "known deviations %s: %s", kd->path,
                             strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0;
    line_keys ks = {0};
    bg_status st = BG_OK;
    int any_range = 0; /* a line (of any context) whose range holds the version */
    ssize_t len;
    while (st == BG_OK && (len = getline(&line, &cap, f)) > 0) {
        lineno++;
        if (memchr(line, '\0', (size_t)len)) { /* a text file has none: not a blank line */
            st = bad(kd->path, lineno, "contains a NUL byte (not a text line)");
            break;
        }
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0')
            continue;
        char *col[NAN_KNOWN_COLUMNS + 1];
        int nc = 0;
        for (char *p = line; nc < NAN_KNOWN_COLUMNS + 1; nc++) {
            col[nc] = p;
            char *tab = strchr(p, '\t');
            if (!tab) {
                nc++;
                break;
            }
            *tab = '\0';
            p = tab + 1;
        }
        if (nc < NAN_KNOWN_COLUMNS || strchr(col[nc - 1], '\t')) {
            st = bad(kd->path, lineno, "needs 7 tab-separated columns and an 8th: runner versions contexts "
                                       "ops rule detail reference observed (a 6-column line of the old "
                                       "format: nan-check --regen-known-ops --migrate)");
            break;
        }
        const char *observed = nc > NAN_KNOWN_COLUMNS ? col[NAN_KNOWN_COLUMNS] : "";
        char *ops = col[3];
        memmove(&col[3], &col[4], 3 * sizeof col[0]); /* col[3..5] = rule detail reference */
        if (strlen(col[0]) != stem || strncmp(col[0], file, stem) != 0) {
            st = bad(kd->path, lineno, "runner column differs from the file's runner");
            break;
        }
        int in = bg_version_in_range(version ? version : "0", col[1]);
        if (in < 0) {
            char why[200];
            snprintf(why, sizeof why, "malformed version range '%.80s' (use *, =X.Y.Z or >=X.Y,<X.Y+1: "
                     "digits and dots only, the lower bound below the upper)", col[1]);
            st = bad(kd->path, lineno, why);
            break;
        }
        if (!*col[3] || !*col[5]) {
            st = bad(kd->path, lineno, "rule and reference must not be empty");
            break;
        }
        if (!rule_known(col[3])) {
            st = bad(kd->path, lineno, "unknown rule (see suites/nan_semantics/check/nan_classify.h)");
            break;
        }
        if (!contexts_known(col[2])) {
            st = bad(kd->path, lineno, "a context pattern matches no context (main_thread, "
                                       "pthread, signal_raise, ..., see docs/nan_semantics.md)");
            break;
        }
        char item[64];
        if (ops_unknown(ops, item, sizeof item)) {
            char why[300];
            snprintf(why, sizeof why, "ops column: '%s' is no op, op family or phase name "
                     "(nan_ops.def, nan_family.h; an empty item or a pattern is not allowed)", item);
            st = bad(kd->path, lineno, why);
            break;
        }
        char obad[200]; /* after the other columns: their errors come first, as before */
        if (observed_bad(observed, col[1], obad, sizeof obad)) {
            st = bad(kd->path, lineno, obad);
            break;
        }
        /* a column cut to its field would cover other ops than the line lists
           (an ops column of regenerated lines outgrew 2048 characters) */
        const char *const cols[] = {col[1], col[2], ops, col[3], col[4], col[5]};
        const size_t caps[] = {sizeof kd->lines->versions, sizeof kd->lines->contexts, sizeof kd->lines->ops,
                               sizeof kd->lines->rule, sizeof kd->lines->detail, sizeof kd->lines->reference};
        static const char *const names[] = {"versions", "contexts", "ops", "rule", "detail", "reference"};
        int too_long = -1;
        for (int c = 0; c < 6 && too_long < 0; c++)
            if (strlen(cols[c]) >= caps[c])
                too_long = c;
        if (too_long >= 0) {
            char why[160];
            snprintf(why, sizeof why, "%s column longer than %zu characters", names[too_long], caps[too_long] - 1);
            st = bad(kd->path, lineno, why);
            break;
        }
        int seen = key_seen(&ks, col, ops, lineno);
        if (seen != 0) {
            char why[200];
            snprintf(why, sizeof why, "duplicate of line %d (same runner, versions, contexts, ops, rule "
                     "and detail): remove one of lines %d and %d", seen, seen, lineno);
            st = seen < 0 ? BG_E_NOMEM : bad(kd->path, lineno, why);
            break;
        }
        /* lines of other contexts are dropped; of other versions kept until
           the measured history is known (select_lines) */
        any_range |= in == 1;
        if (version && !context_matches(col[2], context))
            continue;
        measured_add(kd, observed); /* measured in this context (all lines without a version) */
        nan_known_line *nl = realloc(kd->lines, (size_t)(kd->n + 1) * sizeof *nl);
        if (!nl) {
            st = BG_E_NOMEM;
            break;
        }
        kd->lines = nl;
        nan_known_line *l = &kd->lines[kd->n++];
        memset(l, 0, sizeof *l);
        l->lineno = lineno;
        snprintf(l->versions, sizeof l->versions, "%s", col[1]);
        snprintf(l->contexts, sizeof l->contexts, "%s", col[2]);
        snprintf(l->ops, sizeof l->ops, "%s", ops);
        snprintf(l->rule, sizeof l->rule, "%s", col[3]);
        snprintf(l->detail, sizeof l->detail, "%s", strcmp(col[4], "-") == 0 ? "" : col[4]);
        snprintf(l->reference, sizeof l->reference, "%s", col[5]);
        snprintf(l->observed, sizeof l->observed, "%s", observed);
        l->side = in; /* select_lines: 1 = the range holds the version */
    }
    /* a read error (a directory given as the file: EISDIR) is no empty list */
    if (st == BG_OK && ferror(f))
        st = bg_fail(BG_E_FIXTURE, "nan-check", "known deviations %s: %s", kd->path, strerror(errno));
    free(line);
    keys_free(&ks);
    fclose(f);
    if (st == BG_OK && version)
        st = select_lines(kd, version, any_range);
    if (st != BG_OK)
        nan_known_free(kd);
    return st;
}

bg_status nan_known_load(const char *dir, const char *file, const char *version,
                         const char *context, nan_known *kd)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    return load(path, file, version ? version : "", context, 1, kd);
}

bg_status nan_known_load_runner(const char *root, const bg_runner *rn, const char *context, nan_known *kd)
{
    char dir[1100], rel[400], path[1600], restore[2000];
    snprintf(dir, sizeof dir, "%s/nan_semantics/known", root);
    snprintf(rel, sizeof rel, "nan_semantics/known/%s", rn->known);
    snprintf(path, sizeof path, "%s/%s", root, rel);
    if (!rn->user && access(path, F_OK) != 0 && errno == ENOENT) {
        bg_fixture_hint(BG_FIXTURE_RESTORE, path, rel, restore, sizeof restore);
        return bg_fail(BG_E_FIXTURE, "nan-check", "known deviations %s: missing (runner %s reads it): %s "
                       "(a runner without known deviations has a file of comment lines only)",
                       path, rn->name, restore);
    }
    return nan_known_load(dir, rn->known, rn->version, context, kd);
}

bg_status nan_known_load_all(const char *path, nan_known *kd)
{
    const char *slash = strrchr(path, '/');
    return load(path, slash ? slash + 1 : path, NULL, NULL, 0, kd);
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
