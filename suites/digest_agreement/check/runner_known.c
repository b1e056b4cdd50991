/* runner_known.c — see runner_known.h. */
#include "runner_known.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buildgate/bg_known.h"
#include "buildgate/bg_proposed.h"
#include "buildgate/bg_runner.h"
#include "rx_fixture.h"
#include "rx_flags.h"

/* The known answers a check column may name: the ids of kat.json and
 * kat-v2.json (rx_kat_rel) of the fixtures root the list belongs to. */
typedef struct kat_ids {
    rx_kat_set set[2]; /* randomx-v1, randomx-v2 */
    int have[2];
} kat_ids;

static const char *const algorithms[2] = {"randomx-v1", "randomx-v2"};

/* 1 when kat.<id>[.commitment] names a known answer of the algorithm ("*": of either). */
static int kat_known(const kat_ids *k, const char *algorithm, const char *id, int commitment)
{
    for (int a = 0; a < 2; a++) {
        if (strcmp(algorithm, "*") && strcmp(algorithm, algorithms[a]))
            continue;
        for (int i = 0; k->have[a] && i < k->set[a].nvectors; i++)
            if (!strcmp(k->set[a].vectors[i].id, id) && (!commitment || k->set[a].vectors[i].has_commitment))
                return 1;
    }
    return 0;
}

/* NULL when s is "*" or a comma-separated list of chain, run and
 * kat.<id>[.commitment] naming a known answer of the line's algorithm;
 * else the why in why[n]. */
static const char *checks_bad(const kat_ids *k, const char *algorithm, const char *s, char *why, size_t n)
{
    if (!strcmp(s, "*"))
        return NULL;
    for (const char *p = s;;) {
        size_t l = strcspn(p, ",");
        char one[64];
        snprintf(one, sizeof one, "%.*s", (int)(l < sizeof one ? l : sizeof one - 1), p);
        if (!l || l >= sizeof one ||
            (strcmp(one, "chain") && strcmp(one, "run") && strncmp(one, "kat.", 4))) {
            snprintf(why, n, "check '%.63s': expected kat.<id>[.commitment], chain or run, comma-separated, "
                     "or *", one);
            return why;
        }
        if (!strncmp(one, "kat.", 4)) {
            char *id = one + 4, *dot = strchr(id, '.');
            int commitment = dot && !strcmp(dot, ".commitment");
            if (commitment)
                *dot = '\0';
            if (!kat_known(k, algorithm, id, commitment)) {
                snprintf(why, n, "check 'kat.%s%s' names no known answer of %s (the ids of %s%s)", id,
                         commitment ? ".commitment" : dot ? dot : "", algorithm,
                         strcmp(algorithm, "*") ? rx_kat_rel(algorithm) : "randomx/kat.json and ",
                         strcmp(algorithm, "*") ? "" : rx_kat_rel("randomx-v2"));
                return why;
            }
        }
        if (!p[l])
            break;
        p += l + 1;
    }
    char twice[64];
    if (bg_known_repeats(s, twice, sizeof twice)) {
        snprintf(why, n, "check: '%s' is named twice", twice);
        return why;
    }
    return NULL;
}

typedef struct load_ctx {
    rk_list *out;
    kat_ids kats;
    const bg_known_format *fmt;
} load_ctx;

/* The digest columns of a line (bg_known_format.check): algorithm, variants, check. */
static const char *line_check(void *ctx, char *const *col, char *why, size_t n)
{
    load_ctx *lc = ctx;
    if (strcmp(col[2], "*") && strcmp(col[2], "randomx-v1") && strcmp(col[2], "randomx-v2"))
        return "algorithm: expected randomx-v1, randomx-v2 or *";
    if (!*col[3])
        return "variants: expected runtime-variant slugs, comma-separated, or *";
    if (strcmp(col[3], "*")) {
        for (const char *p = col[3];;) {
            size_t l = strcspn(p, ",");
            char slug[160];
            snprintf(slug, sizeof slug, "%.*s", (int)(l < sizeof slug ? l : sizeof slug - 1), p);
            if (l >= sizeof slug || !rx_slug_valid(slug, col[2])) {
                snprintf(why, n, "variants: '%.100s' is no runtime-variant slug of %s (rx_flags.h: "
                         "<jit|interp>[+secure]+<hard|soft>-aes+<light|full>[+argon2-<ref|ssse3|avx2>]"
                         "[+large-pages][+v2], +v2 exactly for randomx-v2)", slug, col[2]);
                return why;
            }
            if (!p[l])
                break;
            p += l + 1;
        }
        char twice[160];
        if (bg_known_repeats(col[3], twice, sizeof twice)) {
            snprintf(why, n, "variants: '%.100s' is named twice", twice);
            return why;
        }
    }
    return checks_bad(&lc->kats, col[2], col[4], why, n);
}

/* Keeps a valid line (bg_known_format.row). */
static bg_status line_keep(void *ctx, char *const *col, int lineno)
{
    load_ctx *lc = ctx;
    rk_list *out = lc->out;
    rk_line *nl = realloc(out->lines, (size_t)(out->n + 1) * sizeof *nl);
    if (!nl)
        return bg_fail(BG_E_NOMEM, "known digest deviations", "out of memory");
    out->lines = nl;
    rk_line *r = &out->lines[out->n++];
    memset(r, 0, sizeof *r);
    r->lineno = lineno;
    bg_known_fields(r, col, lc->fmt);
    return BG_OK;
}

bg_status rk_load(const char *root, const char *tool, rk_list *out)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/randomx/known/%s.tsv", root, tool);
    return rk_load_path(path, root, out);
}

bg_status rk_load_path(const char *path, const char *root, rk_list *out)
{
    static const char *const names[] = {"runner", "versions", "algorithm", "variants",
                                        "check",  "reference", "observed"};
#define RK_FIELD(f) sizeof ((rk_line *)0)->f
    static const size_t max[] = {0, RK_FIELD(versions), RK_FIELD(algorithm), RK_FIELD(variants),
                                 RK_FIELD(check), RK_FIELD(reference), RK_FIELD(observed)};
    static const size_t field[] = {BG_KNOWN_NO_FIELD,           offsetof(rk_line, versions),
                                   offsetof(rk_line, algorithm), offsetof(rk_line, variants),
                                   offsetof(rk_line, check),     offsetof(rk_line, reference),
                                   offsetof(rk_line, observed)};
#undef RK_FIELD
    memset(out, 0, sizeof *out);
    snprintf(out->path, sizeof out->path, "%s", path);
    struct stat sb;
    if (stat(out->path, &sb) != 0)
        return BG_OK; /* no list: no known deviation */
    load_ctx *lc = calloc(1, sizeof *lc);
    if (!lc)
        return bg_fail(BG_E_NOMEM, "known digest deviations", "out of memory");
    lc->out = out;
    for (int a = 0; a < 2; a++) { /* the answers a check column may name */
        char kat[4200];
        snprintf(kat, sizeof kat, "%s/%s", root, rx_kat_rel(algorithms[a]));
        bg_status st = rx_kat_load(kat, algorithms[a], &lc->kats.set[a]);
        if (st && a == 0) { /* randomx-v1's are stored truth; kat-v2.json may be absent */
            free(lc);
            return st;
        }
        lc->kats.have[a] = st == BG_OK;
    }
    const bg_known_format fmt = {
        7, 0,
        "expected 7 tab-separated columns: runner versions algorithm variants check reference observed",
        names, max, field, line_check, line_keep, lc};
    lc->fmt = &fmt;
    bg_status st = bg_known_read(out->path, 1, &fmt);
    free(lc);
    if (st)
        rk_free(out);
    return st;
}

void rk_free(rk_list *l)
{
    free(l->lines);
    l->lines = NULL;
    l->n = 0;
}

/* 1 when word is in the comma-separated list (or the list is "*"). */
static int in_list(const char *list, const char *word) { return !strcmp(list, "*") || bg_known_in_list(list, word); }

static int matches(const rk_line *r, const char *algorithm, const char *slug, const char *check)
{
    return (!strcmp(r->algorithm, "*") || !strcmp(r->algorithm, algorithm)) &&
           in_list(r->variants, slug) && in_list(r->check, check);
}

/* 1 when version v is one of the line's observed versions. */
static int observed_at(const rk_line *r, const int v[3])
{
    for (const char *p = r->observed; *p;) {
        int w[3];
        if (bg_version_parse(p, w) && bg_version_cmp(v, w) == 0)
            return 1;
        const char *e = strchr(p, ',');
        if (!e)
            break;
        p = e + 1;
    }
    return 0;
}

int rk_find(const rk_list *l, const char *version, const char *algorithm, const char *slug,
            const char *check, const rk_line **line, char *note, unsigned n)
{
    *line = NULL;
    if (n)
        note[0] = '\0';
    int any_range = 0;
    for (int i = 0; i < l->n; i++) {
        int in = bg_version_in_range(version, l->lines[i].versions) == 1;
        any_range |= in;
        if (in && matches(&l->lines[i], algorithm, slug, check)) {
            *line = &l->lines[i];
            return RK_LISTED;
        }
    }
    int v[3];
    if (any_range || !bg_version_parse(version, v))
        return RK_NONE; /* a version the list covers is judged by its lines alone */
    /* the bracket: every version the tool's lines were measured on */
    bg_version_bracket b;
    memset(&b, 0, sizeof b);
    for (int i = 0; i < l->n; i++)
        for (const char *p = l->lines[i].observed; *p;) {
            int w[3];
            if (bg_version_parse(p, w))
                bg_version_bracket_add(&b, v, w);
            const char *e = strchr(p, ',');
            if (!e)
                break;
            p = e + 1;
        }
    if (!bg_version_bracket_ok(&b))
        return RK_NONE;
    const rk_line *lo = NULL, *hi = NULL;
    for (int i = 0; i < l->n; i++) {
        if (!matches(&l->lines[i], algorithm, slug, check))
            continue;
        if (observed_at(&l->lines[i], b.lo))
            lo = &l->lines[i];
        if (observed_at(&l->lines[i], b.hi))
            hi = &l->lines[i];
    }
    if (!lo || !hi)
        return RK_NONE;
    *line = lo;
    snprintf(note, n, "%d.%d.%d is between measured %d.%d.%d and %d.%d.%d; not measured", v[0],
             v[1], v[2], b.lo[0], b.lo[1], b.lo[2], b.hi[0], b.hi[1], b.hi[2]);
    return RK_INFERRED;
}

bg_status rk_propose(const char *tool, const char *version, const char *algorithm,
                     const char *slug, const char *check, const char *extra, char *path,
                     unsigned n)
{
    char range[64], ref[1024], obs[64], line[2048];
    bg_proposed_range(version, range, sizeof range);
    bg_proposed_reference(version, extra, ref, sizeof ref);
    bg_proposed_observed(version, obs, sizeof obs);
    snprintf(line, sizeof line, "%s\t%s\t%s\t%s\t%s\t%s\t%s", tool, range, algorithm, slug, check,
             ref, obs);
    return bg_proposed_append("digest_agreement", tool, line, path, n);
}
