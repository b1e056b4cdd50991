/* report_merge.c — bg-report --merge: cross-host agreement (report_merge.h,
 * docs/cross-host.md). */
#define _POSIX_C_SOURCE 200809L
#include "report_merge.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buildgate/bg_check.h"
#include "buildgate/bg_file.h"
#include "buildgate/bg_help.h"
#include "buildgate/bg_host.h"
#include "buildgate/bg_json.h"
#include "merge_model.h"
#include "report_data.h"

static const char usage_text[] =
    "Usage: bg-report --merge DIR --out-dir OUT [--expect-hosts N]\n"
    "\n"
    "Cross-host agreement: reads DIR/<host>/results.json (every folder of DIR, depth\n"
    "1, that holds one; the host is named by its folder and its results.json host\n"
    "key) and checks what must be equal on every host:\n"
    "  agree.digest.<variant>.<host>  RandomX chain checkpoints and digest, KAT and\n"
    "                                 dataset results equal a reference host's\n"
    "  agree.aes.<host>               digest.aes_flags passed: HARD_AES exactly when\n"
    "                                 the host's CPU has AES\n"
    "  agree.nan.<runner>.<host>      NaN tables: nothing outside the golden fixture\n"
    "                                 and known lists; per context the same verdict\n"
    "                                 and deviation groups as a reference host with\n"
    "                                 the same runner version\n"
    "  agree.commit                   every host ran the same commit\n"    "  agree.hosts                    (--expect-hosts N) at least N hosts have a\n"
    "                                 results.json: a host whose job failed early,\n"
    "                                 was interrupted or uploaded nothing is a fail\n"
    "                                 naming the folders without one\n"
    "  --merge DIR    folder of host folders (the job's downloaded artifacts)\n"
    "  --expect-hosts N  the number of hosts that must be there (the CI matrix\n"
    "                 size, 1-1000); without it one host alone \"agrees\"\n"
    "  --out-dir OUT  where results.json (schema 1, suite \"agree\") and report.md (host\n"
    "                 x suite matrix, then one line per disagreement) are written\n"
    "                 (created if missing; existing files there are replaced)\n"
    "  -h, --help     this text\n"
    "\n"
    "Exit: 0 everything that must agree agrees; 1 a disagreement; 2 usage, or DIR\n"
    "      holds no <host>/results.json; 3 I/O; 4 a results.json that is not JSON\n"
    "      or not schema 1 (one line: buildgate: bg-report: merge: <file>...).\n"
    "Doc: docs/cross-host.md, docs/results.schema.json.\n";

/* ---- loading ---------------------------------------------------------- */

/* NULL when doc is a results.json of schema 1, else why not. */
static const char *not_results(const cJSON *doc, char *why, size_t n)
{
    if (!cJSON_IsObject(doc))
        return "not a JSON object";
    const cJSON *schema = cJSON_GetObjectItemCaseSensitive(doc, "schema");
    if (!cJSON_IsNumber(schema) || schema->valuedouble != 1)
        return "\"schema\" is not 1 (docs/results.schema.json)";
    if (!bg_json_str(cJSON_GetObjectItemCaseSensitive(doc, "host"), "key"))
        return "no \"host\" object with a \"key\"";
    const cJSON *checks = cJSON_GetObjectItemCaseSensitive(doc, "checks"), *c;
    if (!cJSON_IsArray(checks))
        return "no \"checks\" array";
    int i = 0;
    cJSON_ArrayForEach(c, checks) {
        bg_verdict v;
        if (!bg_json_str(c, "name") || bg_verdict_parse(bg_json_str(c, "verdict"), &v) != BG_OK) {
            snprintf(why, n, "checks[%d] has no \"name\" or no valid \"verdict\"", i);
            return why;
        }
        i++;
    }
    return NULL;
}

static int cmp_host(const void *a, const void *b)
{
    return strcmp(((const mhost *)a)->name, ((const mhost *)b)->name);
}

static void host_names(mhost *h)
{
    const char *key = bg_json_str(cJSON_GetObjectItemCaseSensitive(h->doc, "host"), "key");
    snprintf(h->label, sizeof h->label, "%s (%s)", h->name, key);
    size_t i = 0;
    for (; h->name[i] && i + 1 < sizeof h->slug; i++) {
        char ch = h->name[i];
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                 ch == '-' || ch == '_';
        h->slug[i] = ok ? ch : '_';
    }
    h->slug[i] = '\0';
}

/* Finds DIR/<name>/results.json (depth 1, sorted by name) and loads each. */
static bg_status load_hosts(const char *dir, merge *m)
{
    DIR *d = opendir(dir);
    if (!d)
        return bg_fail(BG_E_IO, "merge", "%s: cannot read: %s", dir, strerror(errno));
    struct dirent *e;
    int cap = 0;
    bg_status st = BG_OK;
    while ((e = readdir(d)) != NULL && !st) {
        char path[4096];
        struct stat sb;
        if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof m->h->name)
            continue;
        snprintf(path, sizeof path, "%s/%s/results.json", dir, e->d_name);
        if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
            continue;
        if (m->n == cap) {
            cap = cap ? cap * 2 : 8;
            mhost *bigger = realloc(m->h, (size_t)cap * sizeof *bigger);
            if (!bigger) {
                st = bg_fail(BG_E_NOMEM, "merge", "out of memory");
                break;
            }
            m->h = bigger;
        }
        memset(&m->h[m->n], 0, sizeof *m->h);
        snprintf(m->h[m->n++].name, sizeof m->h->name, "%s", e->d_name);
    }
    closedir(d);
    if (st)
        return st;
    if (m->n == 0)
        return bg_fail(BG_E_USAGE, "merge",
                       "%s: no <host>/results.json in it: nothing to merge (see bg-report --merge --help)",
                       dir);
    qsort(m->h, (size_t)m->n, sizeof *m->h, cmp_host);
    int kept = 0;
    for (int i = 0; i < m->n; i++) {
        char path[4096], why[128];
        mhost *h = &m->h[kept];
        if (i != kept)
            *h = m->h[i];
        snprintf(path, sizeof path, "%s/%s/results.json", dir, h->name);
        if ((st = bg_json_load(path, "merge", &h->doc)) != BG_OK)
            break;
        const char *no = not_results(h->doc, why, sizeof why);
        if (no) {
            st = bg_fail(BG_E_PARSE, "merge", "%s: %s", path, no);
            break;
        }
        /* an earlier merge's output kept under DIR is not a host */
        const char *mode = bg_json_str(cJSON_GetObjectItemCaseSensitive(h->doc, "run"), "mode");
        if (mode && !strcmp(mode, "merge")) {
            cJSON_Delete(h->doc);
            h->doc = NULL;
            continue;
        }
        h->checks = cJSON_GetObjectItemCaseSensitive(h->doc, "checks");
        host_names(h);
        kept++;
    }
    if (st) {
        /* the docs of kept hosts and of the one that failed */
        for (int i = kept + 1; i < m->n; i++)
            m->h[i].doc = NULL;
        m->n = kept + 1;
        return st;
    }
    m->n = kept;
    if (m->n == 0)
        return bg_fail(BG_E_USAGE, "merge",
                       "%s: only merged results in it (run.mode merge): nothing to merge", dir);
    return BG_OK;
}
/* ---- agree.commit ----------------------------------------------------- */

static void agree_commit(merge *m)
{
    const mhost *ref = NULL;
    for (int i = 0; i < m->n; i++) {
        const char *c = mg_commit_of(&m->h[i]);
        if (!c)
            continue;
        if (!ref) {
            ref = &m->h[i];
            continue;
        }
        if (strcmp(c, mg_commit_of(ref))) {
            char e[600], o[600];
            snprintf(e, sizeof e, "%s: commit %s", ref->label, mg_commit_of(ref));
            snprintf(o, sizeof o, "%s: commit %s (fixtures and code may differ)", m->h[i].label, c);
            mg_add_check(m, "agree.commit", BG_FAIL, e, o, NULL, ref, &m->h[i], "commit");
            return;
        }
    }
    char o[300];
    if (ref)
        snprintf(o, sizeof o, "commit %s on every host that records one", mg_commit_of(ref));
    else
        snprintf(o, sizeof o, "no host records run.commit (bg-report --meta commit=...)");
    mg_add_check(m, "agree.commit", ref ? BG_PASS : BG_SKIP, "one commit on every host", o, NULL,
              NULL, NULL, "commit");
}
/* ---- agree.hosts ------------------------------------------------------ */

/* --expect-hosts: fewer hosts than the matrix ran is a fail naming the
 * folders of DIR that hold no results.json (an INCOMPLETE report, nothing).
 * A host whose results.json has no check ran nothing and is not counted; with
 * expect 0 (no --expect-hosts) the check is made only when there is one, and
 * every host is expected. */
static void agree_hosts(merge *m, const char *dir, int expect)
{
    char e[100], o[2048], missing[1000] = "";
    snprintf(e, sizeof e, "%d host%s with a results.json", expect, expect == 1 ? "" : "s");
    DIR *d = opendir(dir);
    struct dirent *x;
    while (d && (x = readdir(d)) != NULL) {
        char path[4096];
        struct stat sb;
        if (x->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, x->d_name);
        if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode))
            continue;
        snprintf(path, sizeof path, "%s/%s/results.json", dir, x->d_name);
        if (stat(path, &sb) == 0)
            continue;
        size_t l = strlen(missing);
        snprintf(missing + l, sizeof missing - l, "%s%s", l ? ", " : "", x->d_name);
    }
    if (d)
        closedir(d);
    /* distinct runs: a folder whose results.json has the host key and the
     * generation time of an earlier one is a copy, not another host */
    int distinct = 0;
    char copies[600] = "", empty[600] = "";
    for (int i = 0; i < m->n; i++) {
        /* a results.json with "checks": [] ran nothing: it cannot agree */
        if (cJSON_GetArraySize(m->h[i].checks) == 0) {
            size_t l = strlen(empty);
            snprintf(empty + l, sizeof empty - l, "%s%s", l ? ", " : "", m->h[i].name);
            continue;
        }
        const char *key = bg_json_str(cJSON_GetObjectItemCaseSensitive(m->h[i].doc, "host"), "key");
        const char *gen = bg_json_str(m->h[i].doc, "generated");
        int dup = 0;
        for (int j = 0; j < i && !dup; j++) {
            const char *k2 = bg_json_str(cJSON_GetObjectItemCaseSensitive(m->h[j].doc, "host"), "key");
            const char *g2 = bg_json_str(m->h[j].doc, "generated");
            dup = key && gen && k2 && g2 && !strcmp(key, k2) && !strcmp(gen, g2);
        }
        if (dup) {
            size_t l = strlen(copies);
            snprintf(copies + l, sizeof copies - l, "%s%s", l ? ", " : "", m->h[i].name);
        }
        distinct += !dup;
    }
    if (!expect) { /* no --expect-hosts: every host that has a results.json */
        expect = m->n;
        snprintf(e, sizeof e, "every host's results.json with checks (%d)", expect);
    }
    snprintf(o, sizeof o, "%d host%s%s%s%s%s%s%s%s", distinct, distinct == 1 ? "" : "s",
             *missing ? "; without results.json: " : "", missing,
             *copies ? "; copies of another host's run (same host key and time): " : "", copies,
             *empty ? "; no check in results.json (ran nothing): " : "", empty,
             distinct < expect ? " (a job failed before its report, was interrupted, or uploaded "
                                 "nothing: see its log)" : "");
    mg_add_check(m, "agree.hosts", distinct < expect ? BG_FAIL : BG_PASS, e, o, NULL, NULL, NULL, "hosts");
}

/* ---- outputs ---------------------------------------------------------- */

static cJSON *counts(const cJSON *checks, const char *host)
{
    cJSON *o = cJSON_CreateObject();
    for (int v = 0; v < BG_VERDICT_COUNT; v++)
        cJSON_AddNumberToObject(o, bg_verdict_name((bg_verdict)v), 0);
    const cJSON *c;
    cJSON_ArrayForEach(c, checks) {
        if (host) {
            const cJSON *h, *hs = cJSON_GetObjectItemCaseSensitive(
                                     cJSON_GetObjectItemCaseSensitive(c, "details"), "hosts");
            int in = 0;
            cJSON_ArrayForEach(h, hs) {
                in |= cJSON_IsString(h) && !strcmp(h->valuestring, host);
            }
            if (!in)
                continue;
        }
        cJSON *n = cJSON_GetObjectItemCaseSensitive(o, mg_verdict(c));
        if (n)
            cJSON_SetNumberValue(n, n->valuedouble + 1);
    }
    return o;
}

/* "fail 2, pass 118, skip 3" (non-zero counts, bad ones first and bold), or "—". */
static void cell(const cJSON *cnt, char *buf, size_t n)
{
    static const char *order[] = {"fail", "xpass", "inconclusive", "xfail", "skip", "pass"};
    size_t l = 0;
    buf[0] = '\0';
    for (int i = 0; i < 6 && cnt; i++) {
        double k = bg_json_num(cnt, order[i], 0);
        if (k <= 0)
            continue;
        int b = i < 2;
        l += (size_t)snprintf(buf + l, l < n ? n - l : 0, "%s%s%s%s %.0f", l ? ", " : "",
                              b ? "**" : "", order[i], b ? "**" : "", k);
        if (l >= n)
            break;
    }
    if (!buf[0])
        snprintf(buf, n, "—");
}

/* One line of Markdown table text: '|' and newlines would break the row. */
static void md_cell(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '|')
            fputc('\\', f);
        fputc(*s == '\n' ? ' ' : *s, f);
    }
}

static void write_matrix(FILE *f, const merge *m)
{
    mg_strset suites = {0};
    for (int i = 0; i < m->n; i++) {
        const cJSON *s;
        cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(m->h[i].doc, "suites"))
            mg_strset_add(&suites, s->string);
    }
    mg_strset_sort(&suites);
    fprintf(f, "| host | host key | commit |");
    for (int s = 0; s < suites.n; s++)
        fprintf(f, " %s |", suites.s[s]);
    fprintf(f, " cross-host agreement |\n|---|---|---|");
    for (int s = 0; s < suites.n; s++)
        fprintf(f, "---|");
    fprintf(f, "---|\n");
    for (int i = 0; i < m->n; i++) {
        const mhost *h = &m->h[i];
        const char *c = mg_commit_of(h);
        char buf[300];
        fprintf(f, "| `%s` | `%s` | %s |", h->name,
                bg_json_str(cJSON_GetObjectItemCaseSensitive(h->doc, "host"), "key"),
                c ? c : "—");
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(h->doc, "suites");
        for (int s = 0; s < suites.n; s++) {
            cell(cJSON_GetObjectItemCaseSensitive(st, suites.s[s]), buf, sizeof buf);
            fprintf(f, " %s |", buf);
        }
        cJSON *ac = counts(m->checks, h->name);
        cell(ac, buf, sizeof buf);
        cJSON_Delete(ac);
        fprintf(f, " %s |\n", buf);
    }
    mg_strset_free(&suites);
}

/* The variant table of every host (bg-perf variants, details.variant_table):
 * one row per version/variant, one column per host; a host without the
 * row says so.  Nothing here must agree (speed is each host's own). */
static void write_variants(FILE *f, const merge *m)
{
    mg_strset rows = {0};
    const cJSON *c;
    char key[300], buf[600];
    for (int i = 0; i < m->n; i++)
        cJSON_ArrayForEach(c, m->h[i].checks) {
            const cJSON *vt = bg_report_variant_of(c);
            if (!vt)
                continue;
            snprintf(key, sizeof key, "%s/%s", bg_json_str(vt, "version"), bg_json_str(vt, "variant"));
            mg_strset_add(&rows, key);
        }
    if (!rows.n)
        return;
    mg_strset_sort(&rows);
    fprintf(f, "\n## RandomX build variants against the shipped build, per host\n\n");
    md_cell(f, bg_report_variant_caption());
    fprintf(f, " Each host measures its own CPU: these differ between hosts by design and decide "
               "nothing here.\n\n| version/variant |");
    for (int i = 0; i < m->n; i++)
        fprintf(f, " `%s` |", m->h[i].name);
    fprintf(f, "\n|---|");
    for (int i = 0; i < m->n; i++)
        fprintf(f, "---|");
    fprintf(f, "\n");
    for (int r = 0; r < rows.n; r++) {
        fprintf(f, "| `%s` |", rows.s[r]);
        for (int i = 0; i < m->n; i++) {
            snprintf(buf, sizeof buf, "— (not run on this host)");
            cJSON_ArrayForEach(c, m->h[i].checks) {
                const cJSON *vt = bg_report_variant_of(c);
                if (!vt)
                    continue;
                snprintf(key, sizeof key, "%s/%s", bg_json_str(vt, "version"), bg_json_str(vt, "variant"));
                if (!strcmp(key, rows.s[r]))
                    bg_report_variant_cell(c, buf, sizeof buf);
            }
            fprintf(f, " ");
            md_cell(f, buf);
            fprintf(f, " |");
        }
        fprintf(f, "\n");
    }
    mg_strset_free(&rows);
}

static bg_status write_report(const merge *m, const char *dir, const char *path, int nbad)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return bg_fail(BG_E_IO, "merge", "cannot create %s: %s", tmp, strerror(errno));
    fprintf(f, "# buildgate cross-host agreement: %s\n\n", nbad ? "FAIL" : "PASS");
    fprintf(f, "%d host%s from `%s`; %d agreement check%s, %d disagreement%s. "
               "What must agree: docs/cross-host.md.\n\n",
            m->n, m->n == 1 ? "" : "s", dir, cJSON_GetArraySize(m->checks),
            cJSON_GetArraySize(m->checks) == 1 ? "" : "s", nbad, nbad == 1 ? "" : "s");
    write_matrix(f, m);
    fprintf(f, "\n## Disagreements\n\n");
    const cJSON *c;
    cJSON_ArrayForEach(c, m->checks) {
        if (!mg_bad(c))
            continue;
        fprintf(f, "- `%s`: ", bg_json_str(c, "name"));
        md_cell(f, bg_json_str(c, "expected"));
        fprintf(f, " **vs** ");
        md_cell(f, bg_json_str(c, "observed"));
        fprintf(f, "\n");
    }
    if (!nbad)
        fprintf(f, "None: every value that must be equal on every host is.\n");
    write_variants(f, m);
    fprintf(f, "\n<details><summary>All %d agreement checks</summary>\n\n"
               "| check | verdict | expected | observed |\n|---|---|---|---|\n",
            cJSON_GetArraySize(m->checks));
    cJSON_ArrayForEach(c, m->checks) {
        fprintf(f, "| `%s` | %s | ", bg_json_str(c, "name"), mg_verdict(c));
        md_cell(f, bg_json_str(c, "expected"));
        fprintf(f, " | ");
        md_cell(f, bg_json_str(c, "observed"));
        fprintf(f, " |\n");
    }
    fprintf(f, "\n</details>\n");
    if (fclose(f) != 0 || rename(tmp, path) != 0) {
        remove(tmp);
        return bg_fail(BG_E_IO, "merge", "cannot write %s: %s", path, strerror(errno));
    }
    return BG_OK;
}

static cJSON *hosts_json(const merge *m)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; i < m->n; i++) {
        const mhost *h = &m->h[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", h->name);
        cJSON_AddItemToObject(o, "host", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(
                                                             h->doc, "host"), 1));
        const char *c = mg_commit_of(h);
        if (c)
            cJSON_AddStringToObject(o, "commit", c);
        else
            cJSON_AddNullToObject(o, "commit");
        cJSON_AddItemToObject(o, "summary", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(
                                                                h->doc, "summary"), 1));
        cJSON_AddItemToObject(o, "suites", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(
                                                               h->doc, "suites"), 1));
        cJSON_AddItemToArray(a, o);
    }
    return a;
}

static bg_status write_outputs(merge *m, const char *dir, const char *out, int nbad)
{
    if (mkdir(out, 0777) != 0 && errno != EEXIST)
        return bg_fail(BG_E_IO, "merge", "cannot create %s: %s", out, strerror(errno));
    cJSON *doc = cJSON_CreateObject();
    cJSON_AddNumberToObject(doc, "schema", 1);
    char now[32], path[4096];
    bg_utc_now(now);
    cJSON_AddStringToObject(doc, "generated", now);
    bg_host self;
    bg_host_probe(&self);
    cJSON_AddItemToObject(doc, "host", bg_host_to_json(&self));
    cJSON *run = cJSON_AddObjectToObject(doc, "run");
    cJSON_AddStringToObject(run, "mode", "merge");
    cJSON_AddStringToObject(run, "merged_from", dir);
    cJSON_AddItemToObject(doc, "summary", counts(m->checks, NULL));
    cJSON *suites = cJSON_AddObjectToObject(doc, "suites");
    cJSON_AddItemToObject(suites, MG_SUITE, counts(m->checks, NULL));
    cJSON_AddNullToObject(doc, "junit");
    cJSON_AddItemToObject(doc, "hosts", hosts_json(m));
    cJSON_AddItemReferenceToObject(doc, "checks", m->checks);
    snprintf(path, sizeof path, "%s/results.json", out);
    bg_status st = bg_json_write_atomic(path, doc);
    cJSON_Delete(doc);
    if (!st) {
        snprintf(path, sizeof path, "%s/report.md", out);
        st = write_report(m, dir, path, nbad);
    }
    return st;
}
/* ---- main ------------------------------------------------------------- */

int bg_report_merge_requested(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--merge"))
            return 1;
    return 0;
}

static int usage(const char *why)
{
    bg_errorf("bg-report", "%s (see bg-report --merge --help)", why);
    return BG_EXIT_USAGE;
}

int bg_report_merge_main(int argc, char **argv)
{
    if (bg_help_requested(argc, argv))
        return bg_help_print(usage_text);
    const char *dir = NULL, *out = NULL, *expect_s = NULL;
    for (int i = 1; i < argc; i++) {
        const char **slot = !strcmp(argv[i], "--merge")          ? &dir
                            : !strcmp(argv[i], "--out-dir")      ? &out
                            : !strcmp(argv[i], "--expect-hosts") ? &expect_s
                                                                 : NULL;
        if (!slot)
            return usage("--merge takes only --out-dir and --expect-hosts");
        if (i + 1 >= argc)
            return bg_help_missing_value(argv[i]);
        *slot = argv[++i];
    }
    if (!dir || !out)
        return usage("--merge DIR and --out-dir OUT are required");
    int expect = 0;
    if (expect_s) {
        char *end;
        long v = strtol(expect_s, &end, 10);
        if (*end || end == expect_s || v < 1 || v > 1000)
            return usage("--expect-hosts takes a whole number of hosts from 1 to 1000");
        expect = (int)v;
    }
    merge m = {0};
    bg_status st = load_hosts(dir, &m);
    /* OUT/results.json over a host's own results.json would lose that host's
       run (a new-developer trial: --out-dir DIR/h1 overwrote DIR/h1/results.json) */
    char mine[4096], theirs[4096];
    snprintf(mine, sizeof mine, "%s/results.json", out);
    for (int i = 0; !st && i < m.n; i++) {
        snprintf(theirs, sizeof theirs, "%s/%s/results.json", dir, m.h[i].name);
        if (bg_file_same(mine, theirs)) {
            bg_errorf("bg-report", "--out-dir %s: its results.json is host %s's input %s: choose another folder "
                      "(see bg-report --merge --help)", out, m.h[i].name, theirs);
            st = BG_E_USAGE;
        }
    }
    int rc = BG_EXIT_OK;
    if (!st) {
        m.checks = cJSON_CreateArray();
        int any_empty = 0;
        for (int i = 0; i < m.n; i++)
            any_empty |= cJSON_GetArraySize(m.h[i].checks) == 0;
        if (expect || any_empty)
            agree_hosts(&m, dir, expect);
        agree_commit(&m);
        mg_agree_digest(&m);
        mg_agree_aes(&m);
        mg_agree_nan(&m);
        int nbad = 0;
        const cJSON *c;
        cJSON_ArrayForEach(c, m.checks) {
            if (!mg_bad(c))
                continue;
            nbad++;
            printf("DISAGREE %s: %s vs %s\n", bg_json_str(c, "name"), bg_json_str(c, "expected"),
                   bg_json_str(c, "observed"));
        }
        st = write_outputs(&m, dir, out, nbad);
        if (!st) {
            printf("bg-report --merge: %d host%s, %d checks, %d disagreement%s: %s\n", m.n,
                   m.n == 1 ? "" : "s", cJSON_GetArraySize(m.checks), nbad, nbad == 1 ? "" : "s",
                   nbad ? "FAIL" : "PASS");
            rc = nbad ? BG_EXIT_FAIL : BG_EXIT_OK;
        }
        cJSON_Delete(m.checks);
    }
    for (int i = 0; i < m.n; i++)
        cJSON_Delete(m.h[i].doc);
    free(m.h);
    return st ? bg_exit_code(st) : rc;
}
