#define _POSIX_C_SOURCE 200809L
#include "report_md.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buildgate/bg_check.h"
#include "buildgate/bg_json.h"

/* Severity order for a matrix cell holding several checks: worst wins. */
static int severity(const char *v)
{
    static const char *const order[] = {"skip", "pass", "xfail", "inconclusive", "xpass", "fail"};
    for (int i = 0; i < 6; i++)
        if (v && strcmp(v, order[i]) == 0)
            return i;
    return 5;
}

static const char *shown(const char *v)
{
    if (!v)
        return "?";
    if (strcmp(v, "fail") == 0)
        return "**FAIL**";
    if (strcmp(v, "xpass") == 0)
        return "**XPASS**";
    return v;
}

/* Writes a JSON value on one line, strings bare, with '|' escaped for tables. */
static void put_value(FILE *f, const cJSON *v, size_t max)
{
    char *s = cJSON_IsString(v) ? NULL : cJSON_PrintUnformatted(v);
    const char *t = cJSON_IsString(v) ? v->valuestring : (s ? s : "null");
    size_t len = strlen(t);
    for (size_t i = 0; i < len && i < max; i++) {
        if (t[i] == '|')
            fputs("\\|", f);
        else if (t[i] == '\n')
            fputc(' ', f);
        else
            fputc(t[i], f);
    }
    if (len > max)
        fputs("…", f);
    free(s);
}

static int total_of(const cJSON *counts)
{
    int t = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, counts) t += (int)c->valuedouble;
    return t;
}

static int bad_of(const cJSON *counts)
{
    return (int)bg_json_num(counts, "fail", 0) + (int)bg_json_num(counts, "xpass", 0);
}

/* The run's verdict: FAIL when a check is fail/xpass, or when none was
 * recorded (nothing was tested: bg-report then exits 1 too). */
static const char *gate_verdict(const cJSON *summary)
{
    return bad_of(summary) || total_of(summary) == 0 ? "FAIL" : "PASS";
}

/* "N checks: F fail/xpass, I inconclusive, S skip" (what the verdict rests on). */
static void counts_line(FILE *f, const cJSON *summary)
{
    int n = total_of(summary);
    fprintf(f, "%d check%s: %d fail/xpass, %d inconclusive, %d skip", n, n == 1 ? "" : "s",
            bad_of(summary), (int)bg_json_num(summary, "inconclusive", 0),
            (int)bg_json_num(summary, "skip", 0));
}

static void header(FILE *f, const cJSON *doc)
{
    const cJSON *host = cJSON_GetObjectItemCaseSensitive(doc, "host");
    const cJSON *summary = cJSON_GetObjectItemCaseSensitive(doc, "summary");
    fprintf(f, "# buildgate report: %s\n\n", gate_verdict(summary));
    counts_line(f, summary);
    fprintf(f, "%s. Generated %s.\n\n", total_of(summary) ? "" : " (nothing was tested)",
            bg_json_str(doc, "generated") ? bg_json_str(doc, "generated") : "?");
    fprintf(f, "| host key | CPU | cores | memory | compiler | CPU features |\n");
    fprintf(f, "|---|---|---|---|---|---|\n");
    fprintf(f, "| `%s` | %s | %d | %.1f GiB | %s | ", bg_json_str(host, "key"),
            bg_json_str(host, "cpu_model"), (int)bg_json_num(host, "ncpu", 0),
            bg_json_num(host, "mem_total", 0) / (1024.0 * 1024 * 1024),
            bg_json_str(host, "compiler"));
    const cJSON *feat = cJSON_GetObjectItemCaseSensitive(host, "features"), *x;
    int first = 1;
    cJSON_ArrayForEach(x, feat) {
        if (cJSON_IsTrue(x)) {
            fprintf(f, "%s%s", first ? "" : ", ", x->string);
            first = 0;
        }
    }
    fprintf(f, " |\n\n");
    const cJSON *run = cJSON_GetObjectItemCaseSensitive(doc, "run"), *m;
    first = 1;
    cJSON_ArrayForEach(m, run) {
        if (!cJSON_IsString(m))
            continue;
        fprintf(f, "%s%s `%s`", first ? "Run: " : ", ", m->string, m->valuestring);
        first = 0;
    }
    if (!first)
        fprintf(f, ".\n\n");
}

static void summary_table(FILE *f, const cJSON *doc)
{
    fprintf(f, "## Verdicts per suite\n\n| suite | verdict |");
    for (int v = 0; v < BG_VERDICT_COUNT; v++)
        fprintf(f, " %s |", bg_verdict_name((bg_verdict)v));
    fprintf(f, "\n|---|---|");
    for (int v = 0; v < BG_VERDICT_COUNT; v++)
        fprintf(f, "---:|");
    fprintf(f, "\n");
    const cJSON *s;
    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(doc, "suites")) {
        fprintf(f, "| %s | %s |", s->string, bad_of(s) ? "**FAIL**" : "pass");
        for (int v = 0; v < BG_VERDICT_COUNT; v++)
            fprintf(f, " %d |", (int)bg_json_num(s, bg_verdict_name((bg_verdict)v), 0));
        fprintf(f, "\n");
    }
    fprintf(f, "\n");
}

/* One line per fail/xpass first, so 18 alike failures read at a glance. */
static void failure_index(FILE *f, const cJSON *checks)
{
    const cJSON *c;
    int n = 0;
    cJSON_ArrayForEach(c, checks) {
        const char *v = bg_json_str(c, "verdict");
        if (!v || (strcmp(v, "fail") && strcmp(v, "xpass")))
            continue;
        if (n++ == 0)
            fprintf(f, "## Failures\n\n| check | verdict | expected | observed |\n|---|---|---|---|\n");
        fprintf(f, "| `%s` | %s | ", bg_json_str(c, "name"), shown(v));
        put_value(f, cJSON_GetObjectItemCaseSensitive(c, "expected"), 90);
        fprintf(f, " | ");
        put_value(f, cJSON_GetObjectItemCaseSensitive(c, "observed"), 90);
        fprintf(f, " |\n");
    }
    if (n)
        fprintf(f, "\n<details><summary>Each failure in full (%d)</summary>\n\n", n);
}

static void failures(FILE *f, const cJSON *checks)
{
    const cJSON *c;
    int n = 0;
    failure_index(f, checks);
    cJSON_ArrayForEach(c, checks) {
        const char *v = bg_json_str(c, "verdict");
        if (!v || (strcmp(v, "fail") && strcmp(v, "xpass")))
            continue;
        n++;
        fprintf(f, "### %s `%s`\n\n", shown(v), bg_json_str(c, "name"));
        if (bg_json_str(c, "test"))
            fprintf(f, "Test `%s`.\n\n", bg_json_str(c, "test"));
        static const char *const parts[] = {"expected", "observed", "details"};
        for (int i = 0; i < 3; i++) {
            const cJSON *v2 = cJSON_GetObjectItemCaseSensitive(c, parts[i]);
            if (!v2 || cJSON_IsNull(v2))
                continue;
            char *s = cJSON_IsString(v2) ? NULL : cJSON_Print(v2);
            fprintf(f, "%s:\n```\n%s\n```\n", parts[i], s ? s : v2->valuestring);
            free(s);
        }
        fprintf(f, "\n");
    }
    if (n)
        fprintf(f, "</details>\n\n");
}

/* One table per distinct details.matrix.table within a suite. */
static void matrices(FILE *f, const cJSON *checks, const char *suite)
{
    char *tables[32];
    int nt = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, checks) {
        const char *s = bg_json_str(c, "suite");
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(c, "details"), "matrix");
        const char *t = bg_json_str(m, "table");
        if (!s || strcmp(s, suite) || !t)
            continue;
        int seen = 0;
        for (int i = 0; i < nt; i++)
            seen |= strcmp(tables[i], t) == 0;
        if (!seen && nt < 32)
            tables[nt++] = (char *)t;
    }
    for (int ti = 0; ti < nt; ti++) {
        /* collect distinct rows and columns in first-seen order */
        const char *rows[512], *cols[64];
        int nr = 0, nc = 0;
        cJSON_ArrayForEach(c, checks) {
            const cJSON *m = cJSON_GetObjectItemCaseSensitive(
                cJSON_GetObjectItemCaseSensitive(c, "details"), "matrix");
            const char *t = bg_json_str(m, "table"), *r = bg_json_str(m, "row"),
                       *col = bg_json_str(m, "col"), *s = bg_json_str(c, "suite");
            if (!t || !r || !col || !s || strcmp(s, suite) || strcmp(t, tables[ti]))
                continue;
            int seen = 0;
            for (int i = 0; i < nr; i++)
                seen |= strcmp(rows[i], r) == 0;
            if (!seen && nr < 512)
                rows[nr++] = r;
            seen = 0;
            for (int i = 0; i < nc; i++)
                seen |= strcmp(cols[i], col) == 0;
            if (!seen && nc < 64)
                cols[nc++] = col;
        }
        fprintf(f, "### %s\n\n| |", tables[ti]);
        for (int j = 0; j < nc; j++)
            fprintf(f, " %s |", cols[j]);
        fprintf(f, "\n|---|");
        for (int j = 0; j < nc; j++)
            fprintf(f, "---|");
        fprintf(f, "\n");
        for (int i = 0; i < nr; i++) {
            fprintf(f, "| `%s` |", rows[i]);
            for (int j = 0; j < nc; j++) {
                const char *worst = NULL, *cell = NULL;
                cJSON_ArrayForEach(c, checks) {
                    const cJSON *m = cJSON_GetObjectItemCaseSensitive(
                        cJSON_GetObjectItemCaseSensitive(c, "details"), "matrix");
                    const char *t = bg_json_str(m, "table"), *r = bg_json_str(m, "row"),
                               *col = bg_json_str(m, "col"), *s = bg_json_str(c, "suite");
                    if (!t || !r || !col || !s || strcmp(s, suite) || strcmp(t, tables[ti]) ||
                        strcmp(r, rows[i]) || strcmp(col, cols[j]))
                        continue;
                    const char *v = bg_json_str(c, "verdict");
                    if (!worst || severity(v) > severity(worst)) {
                        worst = v;
                        cell = bg_json_str(m, "cell");
                    }
                }
                if (!worst)
                    fprintf(f, " |");
                else if (cell)
                    fprintf(f, " %s %s |", shown(worst), cell);
                else
                    fprintf(f, " %s |", shown(worst));
            }
            fprintf(f, "\n");
        }
        fprintf(f, "\n");
    }
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorted names in dir ending with suffix (caller frees). */
char **bg_report_list_dir(const char *dir, const char *suffix, int *n)
{
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char **names = NULL;
    int cap = 0;
    struct dirent *e;
    size_t sl = strlen(suffix);
    while ((e = readdir(d)) != NULL) {
        size_t l = strlen(e->d_name);
        if (l <= sl || strcmp(e->d_name + l - sl, suffix) != 0)
            continue;
        if (*n == cap) {
            cap = cap ? cap * 2 : 64;
            char **bigger = realloc(names, cap * sizeof *names);
            if (!bigger)
                break;
            names = bigger;
        }
        names[(*n)++] = strdup(e->d_name);
    }
    closedir(d);
    if (names)
        qsort(names, *n, sizeof *names, cmp_str);
    return names;
}

void bg_report_list_free(char **l, int n)
{
    for (int i = 0; i < n; i++)
        free(l[i]);
    free(l);
}

/* The suite's fragments <suite>--*.md, in name order, so the same run always
 * renders the same report. */
static void fragments(FILE *f, const char *checks_dir, const char *suite)
{
    int n;
    char **names = bg_report_list_dir(checks_dir, ".md", &n);
    size_t sl = strlen(suite);
    for (int i = 0; i < n; i++) {
        if (strncmp(names[i], suite, sl) || strncmp(names[i] + sl, "--", 2))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", checks_dir, names[i]);
        FILE *in = fopen(path, "r");
        if (!in)
            continue;
        char buf[4096];
        size_t got;
        while ((got = fread(buf, 1, sizeof buf, in)) > 0)
            fwrite(buf, 1, got, f);
        fclose(in);
        fprintf(f, "\n");
    }
    bg_report_list_free(names, n);
}

static void suite_section(FILE *f, const cJSON *checks, const char *checks_dir, const char *suite)
{
    fprintf(f, "## %s\n\n", suite);
    matrices(f, checks, suite);
    fragments(f, checks_dir, suite);
    int n = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, checks) {
        const char *s = bg_json_str(c, "suite");
        n += s && strcmp(s, suite) == 0;
    }
    fprintf(f, "<details><summary>All %d check%s of %s</summary>\n\n", n, n == 1 ? "" : "s", suite);
    fprintf(f, "| check | verdict | observed |\n|---|---|---|\n");
    cJSON_ArrayForEach(c, checks) {
        const char *s = bg_json_str(c, "suite");
        if (!s || strcmp(s, suite))
            continue;
        fprintf(f, "| `%s` | %s | ", bg_json_str(c, "name"), shown(bg_json_str(c, "verdict")));
        put_value(f, cJSON_GetObjectItemCaseSensitive(c, "observed"), 400);
        fprintf(f, " |\n");
    }
    fprintf(f, "\n</details>\n\n");
}

bg_status bg_report_markdown(const cJSON *doc, const char *checks_dir, const char *path)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return bg_fail(BG_E_IO, "bg-report", "cannot create %s: %s", tmp, strerror(errno));
    const cJSON *checks = cJSON_GetObjectItemCaseSensitive(doc, "checks");
    header(f, doc);
    summary_table(f, doc);
    failures(f, checks);
    const cJSON *s;
    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(doc, "suites"))
        suite_section(f, checks, checks_dir, s->string);
    if (bg_json_str(doc, "junit"))
        fprintf(f, "JUnit: `%s`\n", bg_json_str(doc, "junit"));
    int ok = !ferror(f);
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, path) != 0) {
        remove(tmp);
        return bg_fail(BG_E_IO, "bg-report", "cannot write %s: %s", path, strerror(errno));
    }
    return BG_OK;
}

void bg_report_print_summary(const cJSON *doc, FILE *out)
{
    fprintf(out, "%-20s %7s", "suite", "verdict");
    for (int v = 0; v < BG_VERDICT_COUNT; v++)
        fprintf(out, " %6.6s", bg_verdict_name((bg_verdict)v));
    fprintf(out, "\n");
    const cJSON *s;
    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(doc, "suites")) {
        fprintf(out, "%-20s %7s", s->string, bad_of(s) ? "FAIL" : "pass");
        for (int v = 0; v < BG_VERDICT_COUNT; v++)
            fprintf(out, " %6d", (int)bg_json_num(s, bg_verdict_name((bg_verdict)v), 0));
        fprintf(out, "\n");
    }
    const cJSON *sum = cJSON_GetObjectItemCaseSensitive(doc, "summary");
    fprintf(out, "gate: %s (", gate_verdict(sum));
    counts_line(out, sum);
    fprintf(out, ")\n");
}
