/* runner_known.c — see runner_known.h. */
#include "runner_known.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buildgate/bg_file.h"
#include "buildgate/bg_proposed.h"
#include "buildgate/bg_runner.h"

#define NCOLS 7

static int valid_versions_list(const char *s)
{
    if (!*s)
        return 0;
    for (const char *p = s; *p; p++)
        if (!strchr("0123456789.,", *p))
            return 0;
    return 1;
}

/* 1 when s is "*" or a comma-separated list of kat.<id>[.commitment], chain, run. */
static int valid_checks(const char *s)
{
    if (!strcmp(s, "*"))
        return 1;
    if (!*s)
        return 0;
    for (const char *p = s; *p;) {
        const char *e = strchr(p, ',');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        char one[64];
        if (!l || l >= sizeof one)
            return 0;
        memcpy(one, p, l);
        one[l] = '\0';
        int ok = !strcmp(one, "chain") || !strcmp(one, "run");
        if (!ok && !strncmp(one, "kat.", 4) && one[4]) {
            ok = 1;
            for (const char *c = one + 4; *c; c++)
                ok &= (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '.';
        }
        if (!ok)
            return 0;
        if (!e)
            break;
        p = e + 1;
    }
    return 1;
}

/* 1 when word is in the comma-separated list (or the list is "*"). */
static int in_list(const char *list, const char *word)
{
    if (!strcmp(list, "*"))
        return 1;
    size_t w = strlen(word);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t l = e ? (size_t)(e - p) : strlen(p);
        if (l == w && !strncmp(p, word, l))
            return 1;
        if (!e)
            break;
        p = e + 1;
    }
    return 0;
}

bg_status rk_load(const char *root, const char *tool, rk_list *out)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/randomx/known/%s.tsv", root, tool);
    return rk_load_path(path, tool, out);
}

bg_status rk_load_path(const char *path, const char *tool, rk_list *out)
{
    memset(out, 0, sizeof *out);
    snprintf(out->path, sizeof out->path, "%s", path);
    struct stat sb;
    if (stat(out->path, &sb) != 0)
        return BG_OK; /* no list: no known deviation */
    char *buf = NULL;
    size_t len = 0;
    bg_status st = bg_file_read(out->path, "known digest deviations", &buf, &len);
    if (st)
        return st;
    int cap = 0, lineno = 0;
    for (char *line = buf, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        size_t l = strlen(line);
        if (l && line[l - 1] == '\r')
            line[--l] = '\0';
        if (!l || line[0] == '#')
            continue;
        char *col[NCOLS] = {0};
        int nc = 0;
        for (char *p = line; nc < NCOLS;) {
            col[nc++] = p;
            char *t = strchr(p, '\t');
            if (!t)
                break;
            *t = '\0';
            p = t + 1;
        }
        const char *why = NULL;
        if (nc != NCOLS || strchr(col[NCOLS - 1], '\t'))
            why = "expected 7 tab-separated columns: runner versions algorithm variants check reference observed";
        else if (strcmp(col[0], tool))
            why = "runner column names another tool than the file";
        else if (!bg_version_range_valid(col[1]))
            why = "versions: not a version range (e.g. >=7.2,<7.3 or *)";
        else if (strcmp(col[2], "*") && strcmp(col[2], "randomx-v1") && strcmp(col[2], "randomx-v2"))
            why = "algorithm: expected randomx-v1, randomx-v2 or *";
        else if (!*col[3] || strlen(col[3]) >= sizeof out->lines[0].variants)
            why = "variants: expected runtime-variant slugs, comma-separated, or *";
        else if (!valid_checks(col[4]) || strlen(col[4]) >= sizeof out->lines[0].check)
            why = "check: expected kat.<id>[.commitment], chain or run, comma-separated, or *";
        else if (!*col[5])
            why = "reference: empty (an upstream report, or \"observed here ...\")";
        else if (!valid_versions_list(col[6]))
            why = "observed: expected the measured versions, e.g. 7.2.22,10.0.13";
        if (!why) {
            for (char *v = col[6]; v && *v;) {
                char *e = strchr(v, ',');
                char one[32];
                snprintf(one, sizeof one, "%.*s", e ? (int)(e - v) : (int)strlen(v), v);
                if (bg_version_in_range(one, col[1]) != 1) {
                    why = "observed: a version outside the line's versions";
                    break;
                }
                v = e ? e + 1 : NULL;
            }
        }
        if (why) {
            free(buf);
            rk_free(out);
            return bg_fail(BG_E_FIXTURE, "known digest deviations", "%s:%d: %s", out->path, lineno,
                           why);
        }
        if (out->n == cap) {
            cap = cap ? cap * 2 : 8;
            rk_line *nl = realloc(out->lines, (size_t)cap * sizeof *nl);
            if (!nl) {
                free(buf);
                rk_free(out);
                return bg_fail(BG_E_NOMEM, "known digest deviations", "out of memory");
            }
            out->lines = nl;
        }
        rk_line *r = &out->lines[out->n++];
        memset(r, 0, sizeof *r);
        r->lineno = lineno;
        snprintf(r->versions, sizeof r->versions, "%s", col[1]);
        snprintf(r->algorithm, sizeof r->algorithm, "%s", col[2]);
        snprintf(r->variants, sizeof r->variants, "%s", col[3]);
        snprintf(r->check, sizeof r->check, "%s", col[4]);
        snprintf(r->reference, sizeof r->reference, "%s", col[5]);
        snprintf(r->observed, sizeof r->observed, "%s", col[6]);
    }
    free(buf);
    return BG_OK;
}

void rk_free(rk_list *l)
{
    free(l->lines);
    l->lines = NULL;
    l->n = 0;
}

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
