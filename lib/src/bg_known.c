/* bg_known.c — see bg_known.h. */
#define _POSIX_C_SOURCE 200809L
#include "buildgate/bg_known.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "buildgate/bg_runner.h"

int bg_known_in_list(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        if (len == n && strncmp(p, word, n) == 0)
            return 1;
        p += len;
        p += *p == ',';
    }
    return 0;
}

int bg_known_repeats(const char *list, char *item, size_t n)
{
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        for (const char *q = p + len + (p[len] == ','); *q;) {
            size_t l2 = strcspn(q, ",");
            if (l2 == len && strncmp(p, q, len) == 0) {
                snprintf(item, n, "%.*s", (int)len, p);
                return 1;
            }
            q += l2;
            q += *q == ',';
        }
        p += len;
        p += *p == ',';
    }
    return 0;
}

void bg_known_fields(void *line, char *const *col, const bg_known_format *fmt)
{
    for (int c = 0; c < fmt->columns; c++)
        if (fmt->field && fmt->field[c] != BG_KNOWN_NO_FIELD && fmt->max[c])
            snprintf((char *)line + fmt->field[c], fmt->max[c], "%s", col[c]);
}

static bg_status bad(const char *path, int line, const char *why)
{
    char where[1200];
    snprintf(where, sizeof where, "%s:%d", path, line);
    return bg_fail(BG_E_FIXTURE, where, "%s", why);
}

/* NULL when observed is "" or comma-separated versions of digits and dots,
 * each inside range; else the why in why[n]. */
static const char *observed_bad(const char *observed, const char *range, char *why, size_t n)
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
            return why;
        }
        if (bg_version_in_range(v, range) != 1) {
            snprintf(why, n, "observed column: %s is outside the line's versions %.60s", v, range);
            return why;
        }
        p += len;
        p += *p == ',';
    }
    return NULL;
}

/* Every line's key (the columns before the reference) and number. */
typedef struct line_keys {
    char **key;
    int *lineno;
    int n;
} line_keys;

/* 0 and the line recorded; the earlier line's number when it has the same
 * key; -1 out of memory. */
static int key_seen(line_keys *ks, char *const *col, int nkey, int lineno)
{
    size_t len = 1;
    for (int c = 0; c < nkey; c++)
        len += strlen(col[c]) + 1; /* the whole key, however long its columns */
    char *key = malloc(len);
    if (!key)
        return -1;
    size_t o = 0;
    for (int c = 0; c < nkey; c++)
        o += (size_t)snprintf(key + o, len - o, "%s%s", c ? "\t" : "", col[c]);
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

/* The <why> of one line split into col[], or NULL when its common columns
 * and the suite's are valid. */
static const char *line_bad(const bg_known_format *fmt, const char *tool, size_t stem, char *const *col,
                            char *why, size_t n)
{
    const int ref = fmt->columns - 2, obs = fmt->columns - 1;
    if (strlen(col[0]) != stem || strncmp(col[0], tool, stem) != 0) {
        snprintf(why, n, "runner column '%.40s' is not the file's tool '%.*s' (the file is <tool>.tsv)",
                 col[0], (int)(stem < 40 ? stem : 40), tool);
        return why;
    }
    if (!bg_version_range_valid(col[1])) {
        snprintf(why, n, "malformed version range '%.80s' (use *, =X.Y.Z or >=X.Y,<X.Y+1: "
                 "digits and dots only, the lower bound below the upper)", col[1]);
        return why;
    }
    if (!col[ref][strspn(col[ref], " ")]) /* blanks say no more than nothing */
        return "reference column is empty (an upstream report, or \"observed here <date>\")";
    const char *w = fmt->check ? fmt->check(fmt->ctx, col, why, n) : NULL;
    if (w)
        return w;
    if (!fmt->observed_optional && !*col[obs])
        return "observed column is empty (the versions the line was measured on, e.g. 7.2.22,10.0.13)";
    if ((w = observed_bad(col[obs], col[1], why, n)))
        return w;
    for (int c = 0; c < fmt->columns; c++)
        if (fmt->max && fmt->max[c] && strlen(col[c]) >= fmt->max[c]) {
            snprintf(why, n, "%s column longer than %zu characters", fmt->names[c], fmt->max[c] - 1);
            return why;
        }
    return NULL;
}

/* BG_OK when some registry row (built-in or BG_X86_RUNNERS) reads the known
 * lines of tool: its known file without the extension, a user row's: its name
 * (bg_runner_resolve, bg_runner_known_tool); else BG_E_FIXTURE, why[n] naming
 * the tools there are; the registry's own error when it cannot be parsed. */
static bg_status registry_reads(const char *tool, char *why, unsigned n)
{
    const bg_runner_row *rows;
    size_t count;
    bg_status st = bg_runner_rows(&rows, &count, why, n);
    if (st != BG_OK)
        return st;
    char tools[512] = "";
    const char *shared = NULL; /* a row named tool whose lines go to another file */
    for (size_t i = 0; i < count; i++) {
        if (strcmp(rows[i].name, tool) == 0)
            shared = rows[i].known;
        char one[80];
        bg_runner_row_known_tool(&rows[i], one, sizeof one);
        if (strcmp(one, tool) == 0)
            return BG_OK;
        if (!bg_known_in_list(tools, one)) {
            size_t k = strlen(tools);
            snprintf(tools + k, sizeof tools - k, "%s%s", k ? "," : "", one);
        }
    }
    if (shared)
        snprintf(why, n, "no runner reads the known lines of '%.60s': runner %.60s reads %.60s (one file "
                 "per tool, its lines scoped by version ranges)", tool, tool, shared);
    else
        snprintf(why, n, "no runner reads the known lines of '%.60s': a list is <tool>.tsv for one of the "
                 "registry's tools %s (lib/include/buildgate/bg_runners.def, BG_X86_RUNNERS)", tool, tools);
    return BG_E_FIXTURE;
}

bg_status bg_known_read(const char *path, int missing_ok, const bg_known_format *fmt)
{
    if (fmt->columns < 4 || fmt->columns > BG_KNOWN_MAX_COLUMNS)
        return bg_fail(BG_E_USAGE, "bg_known_read", "a format of %d columns", fmt->columns);
    /* the runner column names the file's tool: its name without the extension */
    const char *file = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    const char *dot = strrchr(file, '.');
    size_t stem = dot ? (size_t)(dot - file) : strlen(file);
    FILE *f = fopen(path, "r");
    if (!f)
        return errno == ENOENT && missing_ok ? BG_OK : bg_fail(BG_E_FIXTURE, path, "%s", strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    int lineno = 0;
    line_keys ks = {0};
    bg_status st = BG_OK;
    ssize_t len;
    while (st == BG_OK && (len = getline(&line, &cap, f)) > 0) {
        lineno++;
        if (memchr(line, '\0', (size_t)len)) { /* a text file has none: not a blank line */
            st = bad(path, lineno, "contains a NUL byte (not a text line)");
            break;
        }
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0')
            continue;
        char *col[BG_KNOWN_MAX_COLUMNS];
        int nc = 0;
        for (char *p = line; nc < fmt->columns; nc++) {
            col[nc] = p;
            char *tab = strchr(p, '\t');
            if (!tab) {
                nc++;
                break;
            }
            *tab = '\0';
            p = tab + 1;
        }
        if (nc < fmt->columns - fmt->observed_optional || strchr(col[nc - 1], '\t')) {
            st = bad(path, lineno, fmt->shape);
            break;
        }
        if (nc < fmt->columns)
            col[nc++] = (char *)"";
        char why[400];
        const char *w = line_bad(fmt, file, stem, col, why, sizeof why);
        if (w) {
            st = bad(path, lineno, w);
            break;
        }
        int seen = key_seen(&ks, col, fmt->columns - 2, lineno);
        if (seen != 0) {
            char same[200];
            size_t o = 0;
            for (int c = 0; c < fmt->columns - 2 && o < sizeof same; c++)
                o += (size_t)snprintf(same + o, sizeof same - o, "%s%s",
                                      c == 0 ? "" : c == fmt->columns - 3 ? " and " : ", ", fmt->names[c]);
            snprintf(why, sizeof why, "duplicate of line %d (same %s): remove one of lines %d and %d", seen,
                     same, seen, lineno);
            st = seen < 0 ? bg_fail(BG_E_NOMEM, path, "out of memory") : bad(path, lineno, why);
            break;
        }
        if (fmt->row)
            st = fmt->row(fmt->ctx, col, lineno);
    }
    /* a read error (a directory given as the file: EISDIR) is no empty list */
    if (st == BG_OK && ferror(f))
        st = bg_fail(BG_E_FIXTURE, path, "%s", strerror(errno));
    if (st == BG_OK) { /* a list no runner reads: none of its lines could ever match */
        char tool[80], why_tool[700];
        snprintf(tool, sizeof tool, "%.*s", (int)(stem < 79 ? stem : 79), file);
        bg_status reads = registry_reads(tool, why_tool, sizeof why_tool);
        if (reads != BG_OK)
            st = bg_fail(reads, path, "%s", why_tool);
    }
    free(line);
    keys_free(&ks);
    fclose(f);
    return st;
}
