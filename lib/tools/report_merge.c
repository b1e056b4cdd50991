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
#include "buildgate/bg_help.h"
#include "buildgate/bg_host.h"
#include "buildgate/bg_json.h"

static const char usage_text[] =
    "Usage: bg-report --merge DIR --out-dir OUT\n"
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
    "  agree.commit                   every host ran the same commit\n"
    "  --merge DIR    folder of host folders (the job's downloaded artifacts)\n"
    "  --out-dir OUT  where results.json (schema 1, suite \"agree\") and report.md (host\n"
    "                 x suite matrix, then one line per disagreement) are written\n"
    "                 (created if missing; existing files there are replaced)\n"
    "  -h, --help     this text\n"
    "\n"
    "Exit: 0 everything that must agree agrees; 1 a disagreement; 2 usage, or DIR\n"
    "      holds no <host>/results.json; 3 I/O; 4 a results.json that is not JSON\n"
    "      or not schema 1 (one line: buildgate: merge: <file>...).\n"
    "Doc: docs/cross-host.md, docs/results.schema.json.\n";

#define SUITE "agree"
#define TABLE "Cross-host agreement"

typedef struct mhost {
    char name[256];  /* folder name */
    char label[400]; /* "folder (host key)" */
    char slug[256];  /* folder name with [^A-Za-z0-9_-] as '_', for check names */
    cJSON *doc;      /* its results.json */
    const cJSON *checks;
} mhost;

typedef struct merge {
    mhost *h;
    int n;
    cJSON *checks; /* the agree checks */
} merge;

/* ---- small helpers ---------------------------------------------------- */

static int starts(const char *s, const char *prefix)
{
    return s && strncmp(s, prefix, strlen(prefix)) == 0;
}

static int ends(const char *s, const char *suffix)
{
    size_t l = strlen(s), sl = strlen(suffix);
    return l >= sl && strcmp(s + l - sl, suffix) == 0;
}

static const char *verdict_of(const cJSON *c)
{
    const char *v = bg_json_str(c, "verdict");
    return v ? v : "?";
}

/* pass or fail: a check that ran (skip/inconclusive compare nothing). */
static int ran(const cJSON *c)
{
    const char *v = verdict_of(c);
    return !strcmp(v, "pass") || !strcmp(v, "fail");
}

static int bad(const cJSON *c)
{
    bg_verdict v;
    return bg_verdict_parse(verdict_of(c), &v) == BG_OK && bg_verdict_is_bad(v);
}

/* A JSON value as text into buf: strings as they are, the rest printed. */
static const char *text_of(const cJSON *v, char *buf, size_t n)
{
    if (cJSON_IsString(v))
        return v->valuestring;
    char *p = v ? cJSON_PrintUnformatted(v) : NULL;
    snprintf(buf, n, "%s", p ? p : "null");
    free(p);
    return buf;
}

static const cJSON *find_check(const mhost *h, const char *name)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, h->checks) {
        const char *cn = bg_json_str(c, "name");
        if (cn && !strcmp(cn, name))
            return c;
    }
    return NULL;
}

/* A sorted set of strings (a few hundred at most: linear search). */
typedef struct strset {
    char **s;
    int n, cap;
} strset;

static int strset_has(const strset *ss, const char *s)
{
    for (int i = 0; i < ss->n; i++)
        if (!strcmp(ss->s[i], s))
            return 1;
    return 0;
}

static void strset_add(strset *ss, const char *s)
{
    if (strset_has(ss, s))
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

static void strset_sort(strset *ss)
{
    if (ss->n > 1)
        qsort(ss->s, (size_t)ss->n, sizeof *ss->s, cmp_str);
}

static void strset_free(strset *ss)
{
    for (int i = 0; i < ss->n; i++)
        free(ss->s[i]);
    free(ss->s);
    memset(ss, 0, sizeof *ss);
}

/* Appends one agree check.  hosts: the one or two hosts it is about (the
 * reference first); col: the matrix column (digest, aes, nan, commit). */
static void add_check(merge *m, const char *name, bg_verdict v, const char *expected,
                      const char *observed, cJSON *details, const mhost *ref, const mhost *h,
                      const char *col)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "suite", SUITE);
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
    cJSON_AddStringToObject(mx, "table", TABLE);
    cJSON_AddStringToObject(mx, "row", h ? h->name : ref ? ref->name : "all hosts");
    cJSON_AddStringToObject(mx, "col", col);
    cJSON_AddItemToObject(o, "details", details);
    cJSON_AddItemToArray(m->checks, o);
}

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

static const char *commit_of(const mhost *h)
{
    const char *c = bg_json_str(cJSON_GetObjectItemCaseSensitive(h->doc, "run"), "commit");
    return c && *c && strcmp(c, "unknown") ? c : NULL;
}

static void agree_commit(merge *m)
{
    const mhost *ref = NULL;
    for (int i = 0; i < m->n; i++) {
        const char *c = commit_of(&m->h[i]);
        if (!c)
            continue;
        if (!ref) {
            ref = &m->h[i];
            continue;
        }
        if (strcmp(c, commit_of(ref))) {
            char e[600], o[600];
            snprintf(e, sizeof e, "%s: commit %s", ref->label, commit_of(ref));
            snprintf(o, sizeof o, "%s: commit %s (fixtures and code may differ)", m->h[i].label, c);
            add_check(m, "agree.commit", BG_FAIL, e, o, NULL, ref, &m->h[i], "commit");
            return;
        }
    }
    char o[300];
    if (ref)
        snprintf(o, sizeof o, "commit %s on every host that records one", commit_of(ref));
    else
        snprintf(o, sizeof o, "no host records run.commit (bg-report --meta commit=...)");
    add_check(m, "agree.commit", ref ? BG_PASS : BG_SKIP, "one commit on every host", o, NULL,
              NULL, NULL, "commit");
}

/* ---- agree.digest ----------------------------------------------------- */

/* The variant of a digest check (name minus "digest." and its kind suffix)
 * into out; kind: "chain", "kat" or "dataset"; sub: the KAT id or dataset
 * item ("" for a chain).  0 when c is not one. */
static int digest_variant_sub(const cJSON *c, char *out, size_t n, const char **kind,
                              const char **sub)
{
    const char *name = bg_json_str(c, "name");
    if (!starts(name, "digest.") || starts(name, "digest.selftest."))
        return 0;
    const char *body = name + strlen("digest."), *cut = NULL;
    if (ends(body, ".chain")) {
        cut = body + strlen(body) - strlen(".chain");
        *kind = "chain";
        *sub = "";
    } else {
        const char *kinds[] = {".kat.", ".dataset."};
        for (int i = 0; i < 2 && !cut; i++) {
            const char *p = body, *last = NULL;
            while ((p = strstr(p, kinds[i])) != NULL)
                last = p++;
            if (last) {
                cut = last;
                *kind = kinds[i][1] == 'k' ? "KAT" : "dataset item";
                *sub = last + strlen(kinds[i]);
            }
        }
    }
    if (!cut || cut == body)
        return 0;
    snprintf(out, n, "%.*s", (int)(cut - body), body);
    return 1;
}

static int digest_variant(const cJSON *c, char *out, size_t n, const char **kind)
{
    const char *sub;
    return digest_variant_sub(c, out, n, kind, &sub);
}

/* 1 when host h ran (pass/fail) at least one check of variant v. */
static int runs_variant(const mhost *h, const char *v)
{
    const cJSON *c;
    char cv[512];
    const char *kind;
    cJSON_ArrayForEach(c, h->checks) {
        if (digest_variant(c, cv, sizeof cv, &kind) && ran(c) && !strcmp(cv, v))
            return 1;
    }
    return 0;
}

/* 1 when every check of variant v on host h passes. */
static int variant_passes(const mhost *h, const char *v)
{
    const cJSON *c;
    char cv[512];
    const char *kind;
    cJSON_ArrayForEach(c, h->checks) {
        if (digest_variant(c, cv, sizeof cv, &kind) && !strcmp(cv, v) &&
            strcmp(verdict_of(c), "pass"))
            return 0;
    }
    return 1;
}

/* The first difference found between two hosts for one variant. */
typedef struct ddiff {
    int count;        /* differing checks */
    char check[512];  /* the first one's name */
    char where[160];  /* "checkpoint 3 (hash 23)", "KAT 5", "final digest" */
    char a[600], b[600];
    cJSON *detail;    /* details.first_difference */
} ddiff;

static void ddiff_note(ddiff *dd, const char *check, const char *where, const char *a,
                       const char *b, long index, long hash_index)
{
    if (dd->count++)
        return;
    snprintf(dd->check, sizeof dd->check, "%s", check);
    snprintf(dd->where, sizeof dd->where, "%s", where);
    snprintf(dd->a, sizeof dd->a, "%s", a);
    snprintf(dd->b, sizeof dd->b, "%s", b);
    dd->detail = cJSON_CreateObject();
    cJSON_AddStringToObject(dd->detail, "check", check);
    cJSON_AddStringToObject(dd->detail, "where", where);
    if (index >= 0)
        cJSON_AddNumberToObject(dd->detail, "checkpoint", (double)index);
    if (hash_index >= 0)
        cJSON_AddNumberToObject(dd->detail, "hash_index", (double)hash_index);
    cJSON_AddStringToObject(dd->detail, "reference", a);
    cJSON_AddStringToObject(dd->detail, "observed", b);
}

/* Compares two chain checks: key, n, k, then checkpoint by checkpoint, then
 * the final digest (details written by bg-digest-check, rx_chain_add_json);
 * without checkpoints in the details, their observed values. */
static void diff_chain(const cJSON *ca, const cJSON *cb, ddiff *dd)
{
    const char *name = bg_json_str(ca, "name");
    const cJSON *da = cJSON_GetObjectItemCaseSensitive(ca, "details");
    const cJSON *db = cJSON_GetObjectItemCaseSensitive(cb, "details");
    const cJSON *pa = cJSON_GetObjectItemCaseSensitive(da, "checkpoints");
    const cJSON *pb = cJSON_GetObjectItemCaseSensitive(db, "checkpoints");
    char a[600], b[600], ta[600], tb[600];
    if (!cJSON_IsArray(pa) || !cJSON_IsArray(pb)) {
        const char *oa = text_of(cJSON_GetObjectItemCaseSensitive(ca, "observed"), ta, sizeof ta);
        const char *ob = text_of(cJSON_GetObjectItemCaseSensitive(cb, "observed"), tb, sizeof tb);
        if (strcmp(oa, ob))
            ddiff_note(dd, name, "chain (observed; no checkpoints in details)", oa, ob, -1, -1);
        return;
    }
    const char *ka = bg_json_str(da, "key"), *kb = bg_json_str(db, "key");
    double na = bg_json_num(da, "n", 0), nb = bg_json_num(db, "n", 0);
    double ka_k = bg_json_num(da, "k", 0), kb_k = bg_json_num(db, "k", 0);
    if ((ka && kb && strcmp(ka, kb)) || na != nb || ka_k != kb_k) {
        snprintf(a, sizeof a, "key %s, n %.0f, k %.0f", ka ? ka : "?", na, ka_k);
        snprintf(b, sizeof b, "key %s, n %.0f, k %.0f", kb ? kb : "?", nb, kb_k);
        ddiff_note(dd, name, "chain parameters (not the same chain)", a, b, -1, -1);
        return;
    }
    int np = cJSON_GetArraySize(pa), nq = cJSON_GetArraySize(pb);
    for (int i = 0; i < np || i < nq; i++) {
        const char *ha = cJSON_GetStringValue(cJSON_GetArrayItem(pa, i));
        const char *hb = cJSON_GetStringValue(cJSON_GetArrayItem(pb, i));
        if (ha && hb && !strcmp(ha, hb))
            continue;
        char where[160];
        long hash = (long)((i + 1) * ka_k - 1);
        snprintf(where, sizeof where, "checkpoint %d (hash %ld)", i + 1, hash);
        ddiff_note(dd, name, where, ha ? ha : "(none)", hb ? hb : "(none)", i + 1, hash);
        return;
    }
    const char *ga = bg_json_str(da, "digest"), *gb = bg_json_str(db, "digest");
    if (ga && gb && strcmp(ga, gb))
        ddiff_note(dd, name, "final digest", ga, gb, -1, (long)na - 1);
}

/* Compares every check of variant v that both hosts ran; chain first. */
static void diff_variant(const mhost *ha, const mhost *hb, const char *v, ddiff *dd)
{
    for (int pass = 0; pass < 2; pass++) {
        const cJSON *ca;
        cJSON_ArrayForEach(ca, ha->checks) {
            char cv[512], ta[600], tb[600];
            const char *kind, *sub;
            if (!digest_variant_sub(ca, cv, sizeof cv, &kind, &sub) || strcmp(cv, v) || !ran(ca) ||
                (pass == 0) != !strcmp(kind, "chain"))
                continue;
            const char *name = bg_json_str(ca, "name");
            const cJSON *cb = find_check(hb, name);
            if (!cb || !ran(cb))
                continue;
            if (pass == 0) {
                diff_chain(ca, cb, dd);
                continue;
            }
            const char *oa = text_of(cJSON_GetObjectItemCaseSensitive(ca, "observed"), ta, sizeof ta);
            const char *ob = text_of(cJSON_GetObjectItemCaseSensitive(cb, "observed"), tb, sizeof tb);
            if (strcmp(oa, ob) || strcmp(verdict_of(ca), verdict_of(cb))) {
                char where[600];
                snprintf(where, sizeof where, "%s %s", kind, sub);
                ddiff_note(dd, name, where, oa, ob, -1, -1);
            }
        }
    }
}

static void agree_digest(merge *m)
{
    strset vs = {0};
    for (int i = 0; i < m->n; i++) {
        const cJSON *c;
        cJSON_ArrayForEach(c, m->h[i].checks) {
            char v[512];
            const char *kind;
            if (digest_variant(c, v, sizeof v, &kind) && ran(c))
                strset_add(&vs, v);
        }
    }
    strset_sort(&vs);
    for (int k = 0; k < vs.n; k++) {
        const char *v = vs.s[k];
        /* the reference: the first host whose every check of v passes
         * (it matches the fixtures), else the first that ran v */
        const mhost *ref = NULL;
        int nran = 0;
        for (int i = 0; i < m->n; i++) {
            if (!runs_variant(&m->h[i], v))
                continue;
            nran++;
            if (!ref || (!variant_passes(ref, v) && variant_passes(&m->h[i], v)))
                ref = &m->h[i];
        }
        char name[700], e[2400], o[2400];
        if (nran == 1) {
            snprintf(name, sizeof name, "agree.digest.%s.%s", v, ref->slug);
            snprintf(o, sizeof o, "only %s ran it", ref->label);
            add_check(m, name, BG_SKIP, "the variant run on two or more hosts", o, NULL, ref,
                      NULL, "digest");
            continue;
        }
        for (int i = 0; i < m->n; i++) {
            const mhost *h = &m->h[i];
            if (h == ref || !runs_variant(h, v))
                continue;
            ddiff dd = {0};
            diff_variant(ref, h, v, &dd);
            snprintf(name, sizeof name, "agree.digest.%s.%s", v, h->slug);
            cJSON *d = cJSON_CreateObject();
            cJSON_AddStringToObject(d, "variant", v);
            cJSON_AddStringToObject(d, "reference_host", ref->name);
            cJSON_AddStringToObject(d, "host", h->name);
            cJSON_AddNumberToObject(d, "differing_checks", dd.count);
            if (dd.count) {
                cJSON_AddItemToObject(d, "first_difference", dd.detail);
                snprintf(e, sizeof e, "%s: %s %s", ref->label, dd.where, dd.a);
                snprintf(o, sizeof o, "%s: %s %s (%d differing check%s, first %s)", h->label,
                         dd.where, dd.b, dd.count, dd.count == 1 ? "" : "s", dd.check);
            } else {
                snprintf(e, sizeof e, "%s: chain, KAT and dataset results", ref->label);
                snprintf(o, sizeof o, "%s: the same", h->label);
            }
            add_check(m, name, dd.count ? BG_FAIL : BG_PASS, e, o, d, ref, h, "digest");
        }
    }
    strset_free(&vs);
}

/* ---- agree.aes -------------------------------------------------------- */

static int is_aes_check(const cJSON *c)
{
    const char *n = bg_json_str(c, "name");
    return n && (!strcmp(n, "digest.aes_flags") || (starts(n, "digest.build.") &&
                                                      ends(n, ".aes_flags")));
}

static void agree_aes(merge *m)
{
    for (int i = 0; i < m->n; i++) {
        const mhost *h = &m->h[i];
        const cJSON *feat = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(h->doc, "host"), "features");
        const cJSON *host_aes = cJSON_GetObjectItemCaseSensitive(feat, "aes");
        char name[400], e[1200] = "", o[1200] = "", buf[600];
        int nrun = 0, nbad = 0;
        const cJSON *c;
        snprintf(name, sizeof name, "agree.aes.%s", h->slug);
        cJSON *d = cJSON_CreateObject();
        cJSON *list = cJSON_AddArrayToObject(d, "not_pass");
        cJSON_ArrayForEach(c, h->checks) {
            if (!is_aes_check(c) || !strcmp(verdict_of(c), "skip"))
                continue;
            nrun++;
            const cJSON *det = cJSON_GetObjectItemCaseSensitive(c, "details");
            const cJSON *cpu = cJSON_GetObjectItemCaseSensitive(det, "cpu_aes");
            int mismatch = cJSON_IsBool(cpu) && cJSON_IsBool(host_aes) &&
                           cJSON_IsTrue(cpu) != cJSON_IsTrue(host_aes);
            if (!strcmp(verdict_of(c), "pass") && !mismatch)
                continue;
            const char *cn = bg_json_str(c, "name");
            cJSON_AddItemToArray(list, cJSON_CreateString(cn));
            if (nbad++)
                continue;
            if (mismatch) {
                snprintf(e, sizeof e, "%s: bg-host CPU AES %s", h->label,
                         cJSON_IsTrue(host_aes) ? "yes" : "no");
                snprintf(o, sizeof o, "%s: %s judged against CPU AES %s", h->label, cn,
                         cJSON_IsTrue(cpu) ? "yes" : "no");
            } else {
                snprintf(e, sizeof e, "%s: %s %s (CPU AES %s)", h->label, cn,
                         text_of(cJSON_GetObjectItemCaseSensitive(c, "expected"), buf, sizeof buf),
                         cJSON_IsBool(cpu) ? (cJSON_IsTrue(cpu) ? "yes" : "no") : "unknown");
                snprintf(o, sizeof o, "%s: %s %s: %s", h->label, cn, verdict_of(c),
                         text_of(cJSON_GetObjectItemCaseSensitive(c, "observed"), buf, sizeof buf));
            }
        }
        if (nbad > 1) {
            size_t l = strlen(o);
            snprintf(o + l, sizeof o - l, " (and %d more AES checks)", nbad - 1);
        }
        if (!nbad) {
            snprintf(e, sizeof e, "HARD_AES exactly when the CPU has AES");
            if (nrun)
                snprintf(o, sizeof o, "%s: %d AES check%s", h->label, nrun,
                         nrun == 1 ? " passes" : "s pass");
            else
                snprintf(o, sizeof o, "%s: no digest.aes_flags check ran (digest suite not run)",
                         h->label);
        }
        add_check(m, name, nbad ? BG_FAIL : nrun ? BG_PASS : BG_SKIP, e, o, d, NULL, h, "aes");
    }
}

/* ---- agree.nan -------------------------------------------------------- */

/* One nan.<runner>.<context> test of one host: its summary check and the
 * names of its deviation groups ("<verdict> <rule> (<detail>)" and known
 * lines not seen). */
typedef struct ntable {
    const cJSON *summary;
    const char *test, *runner, *version, *context;
    strset groups;
} ntable;

typedef struct nhost {
    ntable *t;
    int n;
} nhost;

static int is_nan_summary(const cJSON *c)
{
    const char *name = bg_json_str(c, "name"), *test = bg_json_str(c, "test");
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(c, "details");
    return starts(name, "nan.") && test && !strcmp(name, test) && bg_json_str(d, "runner") &&
           bg_json_str(d, "context");
}

static void nan_tables(const mhost *h, nhost *out)
{
    memset(out, 0, sizeof *out);
    const cJSON *c;
    cJSON_ArrayForEach(c, h->checks) {
        const char *v = verdict_of(c);
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
        /* the test's last part (main_thread, main_thread_all_modes, ...): two
         * tests may run one context (in other MXCSR modes) */
        t->context = strrchr(t->test, '.') + 1;
        t->version = bg_json_str(d, "runner_version");
        t->version = t->version ? t->version : "?";
    }
    cJSON_ArrayForEach(c, h->checks) {
        const char *test = bg_json_str(c, "test"), *name = bg_json_str(c, "name");
        if (!test || !name || !strcmp(name, test))
            continue;
        for (int i = 0; i < out->n; i++) {
            if (strcmp(out->t[i].test, test))
                continue;
            char g[700];
            snprintf(g, sizeof g, "%s %s", verdict_of(c), name + strlen(test) + 1);
            strset_add(&out->t[i].groups, g);
        }
    }
    for (int i = 0; i < out->n; i++)
        strset_sort(&out->t[i].groups);
}

static void nhost_free(nhost *nh)
{
    for (int i = 0; i < nh->n; i++)
        strset_free(&nh->t[i].groups);
    free(nh->t);
}

static const ntable *nan_find(const nhost *nh, const char *test)
{
    for (int i = 0; i < nh->n; i++)
        if (!strcmp(nh->t[i].test, test))
            return &nh->t[i];
    return NULL;
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
static const char *group_missing(const strset *a, const strset *b)
{
    for (int i = 0; i < a->n; i++)
        if (!strset_has(b, a->s[i]))
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
    snprintf(rv, sizeof rv, "%s%s%s", starts(ver, r) ? "" : r, starts(ver, r) ? "" : " ", ver);
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
        if (bad(t->summary)) {
            snprintf(p, sizeof p, "context %s: %s against the golden fixture: %s", t->context,
                     verdict_of(t->summary),
                     text_of(cJSON_GetObjectItemCaseSensitive(t->summary, "observed"), buf,
                             sizeof buf));
            if (!problems) {
                snprintf(e, sizeof e, "%s: %s, context %s: pass or xfail", h->label, rv,
                         t->context);
                snprintf(o, sizeof o, "%s: %s", h->label, p);
            }
        } else if (rh) {
            const ntable *u = nan_find(&nh[ref], t->test);
            if (!u)
                continue;
            compared++;
            const char *only_a = group_missing(&t->groups, &u->groups);
            const char *only_u = group_missing(&u->groups, &t->groups);
            if (strcmp(verdict_of(t->summary), verdict_of(u->summary)) || only_a || only_u) {
                snprintf(p, sizeof p, "context %s: %s %s vs %s %s", t->context, rh->name,
                         verdict_of(u->summary), h->name, verdict_of(t->summary));
                if (!problems) {
                    snprintf(e, sizeof e, "%s: %s, context %s: %s%s%s", rh->label, rv, t->context, verdict_of(u->summary), only_u ? ", deviation group " : "",
                             only_u ? only_u : "");
                    snprintf(o, sizeof o, "%s: %s%s%s%s", h->label, verdict_of(t->summary),
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
        else
            snprintf(o, sizeof o, "%s: as expected (no other host ran %s)", h->label, rv);
    }
    if (rh)
        cJSON_AddStringToObject(d, "reference_host", rh->name);
    snprintf(name, sizeof name, "agree.nan.%s.%s", r, h->slug);
    add_check(m, name, problems ? BG_FAIL : BG_PASS, e, o, d, rh, h, "nan");
}

static void agree_nan(merge *m)
{
    nhost *nh = calloc((size_t)m->n, sizeof *nh);
    if (!nh)
        return;
    strset runners = {0};
    for (int i = 0; i < m->n; i++) {
        nan_tables(&m->h[i], &nh[i]);
        for (int k = 0; k < nh[i].n; k++)
            strset_add(&runners, nh[i].t[k].runner);
    }
    strset_sort(&runners);
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
    strset_free(&runners);
    for (int i = 0; i < m->n; i++)
        nhost_free(&nh[i]);
    free(nh);
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
        cJSON *n = cJSON_GetObjectItemCaseSensitive(o, verdict_of(c));
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
    strset suites = {0};
    for (int i = 0; i < m->n; i++) {
        const cJSON *s;
        cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(m->h[i].doc, "suites"))
            strset_add(&suites, s->string);
    }
    strset_sort(&suites);
    fprintf(f, "| host | host key | commit |");
    for (int s = 0; s < suites.n; s++)
        fprintf(f, " %s |", suites.s[s]);
    fprintf(f, " cross-host agreement |\n|---|---|---|");
    for (int s = 0; s < suites.n; s++)
        fprintf(f, "---|");
    fprintf(f, "---|\n");
    for (int i = 0; i < m->n; i++) {
        const mhost *h = &m->h[i];
        const char *c = commit_of(h);
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
    strset_free(&suites);
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
        if (!bad(c))
            continue;
        fprintf(f, "- `%s`: ", bg_json_str(c, "name"));
        md_cell(f, bg_json_str(c, "expected"));
        fprintf(f, " **vs** ");
        md_cell(f, bg_json_str(c, "observed"));
        fprintf(f, "\n");
    }
    if (!nbad)
        fprintf(f, "None: every value that must be equal on every host is.\n");
    fprintf(f, "\n<details><summary>All %d agreement checks</summary>\n\n"
               "| check | verdict | expected | observed |\n|---|---|---|---|\n",
            cJSON_GetArraySize(m->checks));
    cJSON_ArrayForEach(c, m->checks) {
        fprintf(f, "| `%s` | %s | ", bg_json_str(c, "name"), verdict_of(c));
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
        const char *c = commit_of(h);
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
    cJSON_AddItemToObject(suites, SUITE, counts(m->checks, NULL));
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
    const char *dir = NULL, *out = NULL;
    for (int i = 1; i < argc; i++) {
        const char **slot = !strcmp(argv[i], "--merge")     ? &dir
                            : !strcmp(argv[i], "--out-dir") ? &out
                                                            : NULL;
        if (!slot)
            return usage("--merge takes only --out-dir");
        if (i + 1 >= argc)
            return usage("missing value after option");
        *slot = argv[++i];
    }
    if (!dir || !out)
        return usage("--merge DIR and --out-dir OUT are required");
    merge m = {0};
    bg_status st = load_hosts(dir, &m);
    int rc = BG_EXIT_OK;
    if (!st) {
        m.checks = cJSON_CreateArray();
        agree_commit(&m);
        agree_digest(&m);
        agree_aes(&m);
        agree_nan(&m);
        int nbad = 0;
        const cJSON *c;
        cJSON_ArrayForEach(c, m.checks) {
            if (!bad(c))
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
