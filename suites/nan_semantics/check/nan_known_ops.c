/* nan_known_ops.c — see nan_known_ops.h. */
#define _POSIX_C_SOURCE 200809L
#include "nan_known_ops.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_file.h"
#include "nan_family.h"
#include "nan_known.h"

#define WHO "nan-check"

typedef struct kline {
    char *text;      /* the line as read (owned) */
    char **ops;      /* measured items (owned), NULL when none arrived */
    int n_ops, measured;
} kline;

typedef struct kfile {
    char name[256];
    kline *l;
    int n;
    int changed;
} kfile;

static void kfiles_free(kfile *fs, int n)
{
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < fs[i].n; j++) {
            free(fs[i].l[j].text);
            for (int k = 0; k < fs[i].l[j].n_ops; k++)
                free(fs[i].l[j].ops[k]);
            free(fs[i].l[j].ops);
        }
        free(fs[i].l);
    }
    free(fs);
}

static int is_data(const char *line) { return line[0] && line[0] != '#'; }

/* Column c (0-based, tab-separated) of line into out; "" when absent. */
static void column(const char *line, int c, char *out, size_t n)
{
    for (int i = 0; i < c && line; i++) {
        line = strchr(line, '\t');
        line = line ? line + 1 : NULL;
    }
    if (!line) {
        *out = '\0';
        return;
    }
    snprintf(out, n, "%.*s", (int)strcspn(line, "\t"), line);
}

static int columns(const char *line)
{
    int n = 1;
    for (; *line; line++)
        n += *line == '\t';
    return n;
}

static bg_status read_kfile(const char *dir, const char *name, kfile *f)
{
    char path[1400], *text;
    size_t len;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    bg_status st = bg_file_read(path, WHO, &text, &len);
    if (st != BG_OK)
        return st;
    snprintf(f->name, sizeof f->name, "%s", name);
    for (char *p = text; *p;) {
        size_t l = strcspn(p, "\n");
        kline *nl = realloc(f->l, (size_t)(f->n + 1) * sizeof *nl);
        if (!nl) {
            free(text);
            return BG_E_NOMEM;
        }
        f->l = nl;
        memset(&f->l[f->n], 0, sizeof f->l[f->n]);
        f->l[f->n].text = strndup(p, l);
        if (!f->l[f->n++].text) {
            free(text);
            return BG_E_NOMEM;
        }
        p += l;
        p += *p == '\n';
    }
    free(text);
    return BG_OK;
}

/* 6-column lines get the ops column "-"; the Columns comment says 7. */
static bg_status migrate_kfile(kfile *f)
{
    for (int i = 0; i < f->n; i++) {
        char *t = f->l[i].text;
        if (strncmp(t, "# Columns (tab-separated): runner versions contexts rule", 56) == 0) {
            char *nt = strdup("# Columns (tab-separated): runner versions contexts ops rule detail reference; format in");
            if (!nt)
                return BG_E_NOMEM;
            free(t);
            f->l[i].text = nt;
            f->changed = 1;
            continue;
        }
        if (!is_data(t) || columns(t) != NAN_KNOWN_COLUMNS - 1)
            continue;
        /* after the third tab: "runner versions contexts" then "-" */
        const char *p = t;
        for (int k = 0; k < 3 && p; k++)
            p = strchr(p, '\t') + 1;
        size_t head = (size_t)(p - t);
        char *nt = malloc(strlen(t) + 3);
        if (!nt)
            return BG_E_NOMEM;
        memcpy(nt, t, head);
        strcpy(nt + head, "-\t");
        strcpy(nt + head + 2, t + head);
        free(t);
        f->l[i].text = nt;
        f->changed = 1;
    }
    return BG_OK;
}

static bg_status add_op(kline *l, const char *op)
{
    l->measured = 1;
    for (int i = 0; i < l->n_ops; i++)
        if (strcmp(l->ops[i], op) == 0)
            return BG_OK;
    char **no = realloc(l->ops, (size_t)(l->n_ops + 1) * sizeof *no);
    if (!no)
        return BG_E_NOMEM;
    l->ops = no;
    if (!(l->ops[l->n_ops] = strdup(op)))
        return BG_E_NOMEM;
    l->n_ops++;
    return BG_OK;
}

/* The line "<path>:<n>" names in fs, or NULL. */
static kline *line_of(kfile *fs, int nf, const char *where, kfile **file)
{
    const char *colon = strrchr(where, ':');
    if (!colon)
        return NULL;
    int lineno = atoi(colon + 1);
    const char *slash = where;
    for (const char *p = where; p < colon; p++)
        if (*p == '/')
            slash = p + 1;
    for (int i = 0; i < nf; i++)
        if (strlen(fs[i].name) == (size_t)(colon - slash) &&
            strncmp(fs[i].name, slash, (size_t)(colon - slash)) == 0 && lineno >= 1 &&
            lineno <= fs[i].n) {
            *file = &fs[i];
            return &fs[i].l[lineno - 1];
        }
    return NULL;
}

/* One check: its ops to the lines it names. */
static bg_status take_check(const cJSON *ch, kfile *fs, int nf, const char *src, int lineno)
{
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(ch, "details");
    const cJSON *kls = cJSON_GetObjectItemCaseSensitive(d, "known_lines");
    const cJSON *ops = cJSON_GetObjectItemCaseSensitive(d, "op_list");
    const cJSON *rule = cJSON_GetObjectItemCaseSensitive(d, "rule");
    if (!cJSON_IsArray(kls) || !cJSON_IsArray(ops) || !cJSON_IsString(rule))
        return BG_OK;
    kline *ls[8];
    int n = 0;
    const cJSON *w;
    cJSON_ArrayForEach(w, kls) {
        kfile *f = NULL;
        kline *l = cJSON_IsString(w) ? line_of(fs, nf, w->valuestring, &f) : NULL;
        if (!l || n == 8)
            continue;
        char r[64];
        column(l->text, 4, r, sizeof r);
        if (!is_data(l->text) || strcmp(r, rule->valuestring) != 0)
            return bg_fail(BG_E_FIXTURE, WHO, "%s:%d names %s for rule %s, but that line now says "
                           "'%.60s': the checks are from another version of the list (re-run the "
                           "tests; nothing written)", src, lineno, w->valuestring,
                           rule->valuestring, l->text);
        f->changed = 1;
        ls[n++] = l;
    }
    const cJSON *op;
    cJSON_ArrayForEach(op, ops) {
        if (!cJSON_IsString(op) || n == 0)
            continue;
        kline *to = ls[0];
        for (int i = 0; i < n; i++) {
            char cur[NAN_KNOWN_OPS_MAX];
            column(ls[i]->text, 3, cur, sizeof cur);
            if (nan_known_ops_cover(cur, op->valuestring)) {
                to = ls[i];
                break;
            }
        }
        bg_status st = add_op(to, op->valuestring);
        if (st != BG_OK)
            return st;
    }
    return BG_OK;
}

static bg_status read_checks(const char *path, kfile *fs, int nf)
{
    char *text;
    size_t len;
    bg_status st = bg_file_read(path, WHO, &text, &len);
    if (st != BG_OK)
        return st;
    int lineno = 0;
    for (char *p = text; *p && st == BG_OK;) {
        size_t l = strcspn(p, "\n");
        lineno++;
        if (l > 0) {
            cJSON *ch = cJSON_ParseWithLength(p, l);
            if (!ch)
                st = bg_fail(BG_E_PARSE, WHO, "%s:%d: not a JSON check line", path, lineno);
            else
                st = take_check(ch, fs, nf, path, lineno);
            cJSON_Delete(ch);
        }
        p += l;
        p += *p == '\n';
    }
    free(text);
    return st;
}

/* The line with its ops column replaced by the compressed measured ops. */
static bg_status rewrite_line(kline *l)
{
    char ops[NAN_KNOWN_OPS_MAX];
    if (nan_family_compress((const char *const *)l->ops, l->n_ops, ops, sizeof ops) != 0)
        return BG_E_NOMEM;
    const char *t = l->text, *p = t;
    for (int k = 0; k < 3 && p; k++)
        p = strchr(p, '\t') + 1;
    const char *rest = strchr(p, '\t');
    size_t head = (size_t)(p - t);
    char *nt = malloc(head + strlen(ops) + strlen(rest) + 1);
    if (!nt)
        return BG_E_NOMEM;
    memcpy(nt, t, head);
    strcpy(nt + head, ops);
    strcat(nt, rest);
    free(l->text);
    l->text = nt;
    return BG_OK;
}

static bg_status write_kfile(const char *dir, kfile *f)
{
    char path[1400], tmp[1500];
    snprintf(path, sizeof path, "%s/%s", dir, f->name);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *o = fopen(tmp, "w");
    if (!o)
        return bg_fail(BG_E_IO, WHO, "cannot write %s", tmp);
    for (int i = 0; i < f->n; i++)
        fprintf(o, "%s\n", f->l[i].text);
    if (fclose(o) != 0 || rename(tmp, path) != 0) {
        remove(tmp);
        return bg_fail(BG_E_IO, WHO, "cannot write %s", path);
    }
    return BG_OK;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const kfile *)a)->name, ((const kfile *)b)->name);
}

bg_status nan_known_ops_regen(const char *known_dir, int migrate, const char *reason,
                              char *const *checks_files, int n_checks)
{
    if (!reason || !*reason)
        return bg_fail(BG_E_USAGE, WHO, "--regen-known-ops rewrites the known lists: --reason TEXT "
                       "is required");
    DIR *d = opendir(known_dir);
    if (!d)
        return bg_fail(BG_E_IO, WHO, "cannot read the known-list directory %s", known_dir);
    kfile *fs = NULL;
    int nf = 0;
    bg_status st = BG_OK;
    for (struct dirent *e; st == BG_OK && (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".tsv") != 0)
            continue;
        kfile *nfs = realloc(fs, (size_t)(nf + 1) * sizeof *nfs);
        if (!nfs) {
            st = BG_E_NOMEM;
            break;
        }
        fs = nfs;
        memset(&fs[nf], 0, sizeof fs[nf]);
        st = read_kfile(known_dir, e->d_name, &fs[nf++]);
        if (st == BG_OK && migrate)
            st = migrate_kfile(&fs[nf - 1]);
    }
    closedir(d);
    if (fs)
        qsort(fs, (size_t)nf, sizeof *fs, by_name);
    for (int i = 0; st == BG_OK && i < n_checks; i++)
        st = read_checks(checks_files[i], fs, nf);
    for (int i = 0; st == BG_OK && i < nf; i++)
        for (int j = 0; st == BG_OK && j < fs[i].n; j++)
            if (fs[i].l[j].measured)
                st = rewrite_line(&fs[i].l[j]);
    for (int i = 0; st == BG_OK && i < nf; i++) {
        if (!fs[i].changed)
            continue;
        st = write_kfile(known_dir, &fs[i]);
        int measured = 0, data = 0;
        for (int j = 0; j < fs[i].n; j++) {
            measured += fs[i].l[j].measured;
            data += is_data(fs[i].l[j].text);
        }
        printf("nan-check: %s/%s: ops column of %d of %d lines regenerated (%s)\n", known_dir,
               fs[i].name, measured, data, reason);
        for (int j = 0; j < fs[i].n && n_checks > 0; j++)
            if (is_data(fs[i].l[j].text) && !fs[i].l[j].measured)
                printf("  line %d not measured by these checks (kept): %.80s\n", j + 1,
                       fs[i].l[j].text);
    }
    kfiles_free(fs, nf);
    return st;
}
