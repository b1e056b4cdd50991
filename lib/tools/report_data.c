/* report_data.c — see report_data.h. */
#define _POSIX_C_SOURCE 200809L
#include "report_data.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_check.h"
#include "buildgate/bg_json.h"

int bg_report_severity(const char *v)
{
    static const char *const order[] = {"skip", "pass", "xfail", "inconclusive", "xpass", "fail"};
    for (int i = 0; i < 6; i++)
        if (v && strcmp(v, order[i]) == 0)
            return i;
    return 5;
}

static int is_bad(const char *v)
{
    return v && (strcmp(v, "fail") == 0 || strcmp(v, "xpass") == 0);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* ---- inconclusive causes ------------------------------------------------ */

/* The <mode> of a perf check's name perf.<mode>.<benchmark> into mode[n] ("" without a
 * second dot). */
static void perf_mode(const char *name, char *mode, size_t n)
{
    const char *dot = strchr(name + 5, '.');
    size_t ml = dot ? (size_t)(dot - (name + 5)) : 0;
    snprintf(mode, n, "%.*s", (int)(ml < n ? ml : n - 1), name + 5);
}

/* The cause of an inconclusive check, its grouping key and whether the host
 * (not the change) is what lacks the power to decide.
 * - details.cause (string) and details.host_limit (bool): stated by the check;
 * - litmus power checks (<name>.power): "power reduced: T threads share C
 *   CPUs, ..." (oversubscribed) or "<outcome> not seen in N: <reason>" (the
 *   runner cannot make threads race): host-limited;
 * - perf ratios whose interval straddles the band: one cause per source, the
 *   merge-base judgement ("this change vs its merge-base") apart from the A/A
 *   and other self-checks ("not this change");
 * - otherwise the observed text with its digits folded, per suite. */
static void cause_of(const cJSON *c, char *key, size_t kn, char *text, size_t tn, int *host)
{
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(c, "details");
    const char *name = bg_json_str(c, "name"), *obs = bg_json_str(c, "observed");
    const char *suite = bg_json_str(c, "suite");
    name = name ? name : "";
    obs = obs ? obs : "";
    suite = suite ? suite : "unknown";
    *host = 0;
    if (bg_json_str(d, "cause")) {
        snprintf(text, tn, "%s", bg_json_str(d, "cause"));
        *host = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(d, "host_limit"));
        snprintf(key, kn, "cause:%.190s", text);
        return;
    }
    int threads, cpus;
    if (ends_with(name, ".power") &&
        sscanf(obs, "power reduced: %d threads share %d CPUs", &threads, &cpus) == 2) {
        snprintf(text, tn,
                 "oversubscribed: a test with more threads than this host's %d CPUs rarely runs "
                 "all of them at once, so its control outcome is too rare to show power",
                 cpus);
        snprintf(key, kn, "oversubscribed:%d", cpus);
        *host = 1;
        return;
    }
    const char *reason = strstr(obs, " not seen in ");
    if (ends_with(name, ".power") && reason && (reason = strstr(reason, ": ")) != NULL) {
        snprintf(text, tn, "no power: %s", reason + 2);
        snprintf(key, kn, "nopower:%.190s", reason + 2);
        *host = 1;
        return;
    }
    const cJSON *iv = cJSON_GetObjectItemCaseSensitive(d, "interval");
    if (strncmp(name, "perf.", 5) == 0 && cJSON_GetArraySize(iv) == 2) {
        char mode[32];
        perf_mode(name, mode, sizeof mode);
        int mb = 0;
        const char *src = bg_report_perf_source(c, mode, &mb);
        snprintf(text, tn, "perf (%s%s): the ratio's interval straddles 1 + band, so the run "
                           "cannot tell a slowdown from noise (the perf table has each ratio; a "
                           "quieter host or more --rounds decides)",
                 mb ? "this change vs its merge-base" : src,
                 mb ? "" : ", not this change");
        snprintf(key, kn, "perf:straddles:%s", src);
        return;
    }
    /* fold digits so "3 of 10" and "4 of 12" group together */
    size_t k = (size_t)snprintf(key, kn, "obs:%s:", suite);
    for (const char *p = obs; *p && k + 1 < kn; p++) {
        if (isdigit((unsigned char)*p)) {
            while (isdigit((unsigned char)p[1]) || p[1] == '.')
                p++;
            key[k++] = '#';
        } else
            key[k++] = *p;
    }
    key[k < kn ? k : kn - 1] = '\0';
    snprintf(text, tn, "%s: %s", suite, obs);
}

/* Check c into the cause of list *list (*n causes) with this key, created
 * with text and host on first use. */
static bg_status cause_add(bg_rep_cause **list, int *n, const char *key, const char *text, int host,
                           const cJSON *c)
{
    int i = 0;
    while (i < *n && strcmp((*list)[i].key, key))
        i++;
    if (i == *n) {
        bg_rep_cause *bigger = realloc(*list, (size_t)(*n + 1) * sizeof *bigger);
        if (!bigger)
            return BG_E_NOMEM;
        *list = bigger;
        bg_rep_cause *nc = &(*list)[(*n)++];
        memset(nc, 0, sizeof *nc);
        snprintf(nc->key, sizeof nc->key, "%s", key);
        snprintf(nc->text, sizeof nc->text, "%s", text);
        nc->host = host;
    }
    bg_rep_cause *cs = &(*list)[i];
    if (cs->n == cs->cap) {
        int cap = cs->cap ? cs->cap * 2 : 16;
        const cJSON **bigger = realloc(cs->checks, (size_t)cap * sizeof *bigger);
        if (!bigger)
            return BG_E_NOMEM;
        cs->checks = bigger;
        cs->cap = cap;
    }
    cs->checks[cs->n++] = c;
    return BG_OK;
}

static bg_status add_cause(bg_report_model *m, const cJSON *c)
{
    char key[200], text[400];
    int host;
    cause_of(c, key, sizeof key, text, sizeof text, &host);
    bg_status st = cause_add(&m->causes, &m->ncauses, key, text, host, c);
    m->nhost_inconclusive += st == BG_OK && host;
    return st;
}

/* A check whose verdicts were inferred from a bracket of measured runner
 * versions (details.inferred.cause: nan-check's summary, litmus-check's
 * forbidden check): grouped per cause, i.e. per runner version. */
static bg_status add_inferred(bg_report_model *m, const cJSON *c)
{
    const cJSON *inf = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(c, "details"), "inferred");
    const char *cause = bg_json_str(inf, "cause");
    return cause ? cause_add(&m->inferred, &m->ninferred, cause, cause, 0, c) : BG_OK;
}

/* Host-limited causes first, then by count (most first). */
static int cmp_cause(const void *a, const void *b)
{
    const bg_rep_cause *x = a, *y = b;
    if (x->host != y->host)
        return y->host - x->host;
    return y->n - x->n;
}

/* ---- perf ------------------------------------------------------------- */

const char *bg_report_perf_source(const cJSON *check, const char *mode, int *merge_base)
{
    const char *test = bg_json_str(check, "test");
    *merge_base = test && strcmp(test, "perf.ab.merge_base") == 0;
    if (*merge_base)
        return "merge-base A/B";
    if (strcmp(mode, "ab") == 0)
        return "A/A self-check";
    if (strcmp(mode, "baseline") == 0)
        return "stored baseline";
    return mode;
}

/* Puts the merge-base rows first (stable: each group keeps check order) and
 * counts them. */
static bg_status perf_order(bg_report_model *m)
{
    bg_rep_perf *tmp = malloc(((size_t)m->nperf + 1) * sizeof *tmp);
    if (!tmp)
        return BG_E_NOMEM;
    int k = 0;
    for (int pass = 1; pass >= 0; pass--)
        for (int i = 0; i < m->nperf; i++)
            if (m->perf[i].merge_base == pass)
                tmp[k++] = m->perf[i];
    for (int i = 0; i < m->nperf; i++)
        m->nperf_mb += m->perf[i].merge_base;
    memcpy(m->perf, tmp, (size_t)m->nperf * sizeof *tmp);
    free(tmp);
    return BG_OK;
}

static int perf_of(const cJSON *c, bg_rep_perf *p)
{
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(c, "details");
    const cJSON *iv = cJSON_GetObjectItemCaseSensitive(d, "interval");
    const char *name = bg_json_str(c, "name");
    if (!name || strncmp(name, "perf.", 5) || !cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(d, "ratio")) ||
        cJSON_GetArraySize(iv) != 2)
        return 0;
    memset(p, 0, sizeof *p);
    p->check = c;
    p->name = name;
    const char *dot = strchr(name + 5, '.');
    p->bench = dot ? dot + 1 : name;
    perf_mode(name, p->mode, sizeof p->mode);
    p->source = bg_report_perf_source(c, p->mode, &p->merge_base);
    p->verdict = bg_json_str(c, "verdict");
    p->ratio = bg_json_num(d, "ratio", 1);
    p->lo = cJSON_GetArrayItem(iv, 0)->valuedouble;
    p->hi = cJSON_GetArrayItem(iv, 1)->valuedouble;
    p->band = bg_json_num(d, "band", 0);
    p->med_base = bg_json_num(d, "median_base", 0);
    p->med_head = bg_json_num(d, "median_head", 0);
    p->metric = bg_json_str(d, "metric");
    return 1;
}

/* ---- matrices ----------------------------------------------------------- */

static const cJSON *matrix_of(const cJSON *c)
{
    return cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(c, "details"), "matrix");
}

static int index_of(const char **list, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (strcmp(list[i], s) == 0)
            return i;
    return -1;
}

/* Adds s to list (grown by doubling) unless present; -1 on allocation failure. */
static int intern(const char ***list, int *n, const char *s)
{
    int i = index_of(*list, *n, s);
    if (i >= 0)
        return i;
    if ((*n & (*n - 1)) == 0) { /* 0, 1, 2, 4, ...: grow */
        const char **bigger = realloc(*list, (size_t)(*n ? *n * 2 : 1) * sizeof *bigger);
        if (!bigger)
            return -1;
        *list = bigger;
    }
    (*list)[*n] = s;
    return (*n)++;
}

/* The matrix object of check c when it has a row and column in table x, else NULL. */
static const cJSON *cell_of(const cJSON *c, const bg_rep_matrix *x)
{
    const cJSON *mx = matrix_of(c);
    const char *t = bg_json_str(mx, "table"), *s = bg_json_str(c, "suite");
    if (!t || !s || strcmp(t, x->table) || strcmp(s, x->suite) || !bg_json_str(mx, "row") ||
        !bg_json_str(mx, "col"))
        return NULL;
    return mx;
}

/* 1 + the index of the host-limited cause that holds check c, or 0. */
static int host_cause_of(const bg_report_model *m, const cJSON *c)
{
    for (int i = 0; i < m->ncauses; i++)
        for (int k = 0; m->causes[i].host && k < m->causes[i].n; k++)
            if (m->causes[i].checks[k] == c)
                return i + 1;
    return 0;
}

static bg_status build_matrices(bg_report_model *m)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, m->checks) {
        const cJSON *mx = matrix_of(c);
        const char *t = bg_json_str(mx, "table"), *s = bg_json_str(c, "suite");
        if (!t || !s || !bg_json_str(mx, "row") || !bg_json_str(mx, "col"))
            continue;
        int i = 0;
        while (i < m->nmx && (strcmp(m->mx[i].table, t) || strcmp(m->mx[i].suite, s)))
            i++;
        if (i < m->nmx)
            continue;
        bg_rep_matrix *bigger = realloc(m->mx, (size_t)(m->nmx + 1) * sizeof *bigger);
        if (!bigger)
            return BG_E_NOMEM;
        m->mx = bigger;
        memset(&m->mx[m->nmx], 0, sizeof *m->mx);
        m->mx[m->nmx].suite = s;
        m->mx[m->nmx++].table = t;
    }
    for (int ti = 0; ti < m->nmx; ti++) {
        bg_rep_matrix *x = &m->mx[ti];
        cJSON_ArrayForEach(c, m->checks) {
            const cJSON *mx = cell_of(c, x);
            if (!mx)
                continue;
            if (intern(&x->rows, &x->nr, bg_json_str(mx, "row")) < 0 ||
                intern(&x->cols, &x->nc, bg_json_str(mx, "col")) < 0)
                return BG_E_NOMEM;
        }
        x->cells = calloc((size_t)x->nr * (size_t)x->nc + 1, sizeof *x->cells);
        x->row_cause = calloc((size_t)x->nr + 1, sizeof *x->row_cause);
        if (!x->cells || !x->row_cause)
            return BG_E_NOMEM;
        cJSON_ArrayForEach(c, m->checks) {
            const cJSON *mx = cell_of(c, x);
            if (!mx)
                continue;
            int r = index_of(x->rows, x->nr, bg_json_str(mx, "row"));
            int col = index_of(x->cols, x->nc, bg_json_str(mx, "col"));
            bg_rep_cell *cell = &x->cells[r * x->nc + col];
            const char *v = bg_json_str(c, "verdict");
            v = v ? v : "?";
            if (!cell->verdict || bg_report_severity(v) > bg_report_severity(cell->verdict)) {
                cell->verdict = v;
                cell->text = bg_json_str(mx, "cell");
            }
            int hc = host_cause_of(m, c);
            if (hc) {
                cell->cause = cell->cause ? cell->cause : hc;
                x->row_cause[r] = x->row_cause[r] ? x->row_cause[r] : hc;
            } else if (!cell->decided || bg_report_severity(v) > bg_report_severity(cell->decided))
                cell->decided = v;
        }
    }
    return BG_OK;
}

/* ---- litmus rates --------------------------------------------------------- */

/* A memory_order check whose details name an allowed relaxed outcome
 * (exists_verdict "allowed") with its count: the outcome's rate per million. */
static int rate_of(const cJSON *c, bg_rep_rate *r)
{
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(c, "details");
    const char *ev = bg_json_str(d, "exists_verdict");
    const cJSON *mx = matrix_of(c);
    double it = bg_json_num(d, "iterations", 0);
    if (!ev || strcmp(ev, "allowed") || !bg_json_str(mx, "row") || !bg_json_str(d, "test") || it <= 0)
        return 0;
    r->row = bg_json_str(mx, "row");
    r->test = bg_json_str(d, "test");
    r->verdict = bg_json_str(c, "verdict");
    r->per_million = bg_json_num(d, "exists_count", 0) / it * 1e6;
    return 1;
}

/* ---- base comparison ------------------------------------------------------ */

static const char *verdict_in(const cJSON *checks, const char *name)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, checks) {
        const char *n = bg_json_str(c, "name");
        if (n && strcmp(n, name) == 0)
            return bg_json_str(c, "verdict");
    }
    return NULL;
}

static bg_status push_change(bg_rep_change **list, int *n, const char *name, const char *was,
                             const char *now)
{
    bg_rep_change *bigger = realloc(*list, (size_t)(*n + 1) * sizeof *bigger);
    if (!bigger)
        return BG_E_NOMEM;
    *list = bigger;
    bigger[*n] = (bg_rep_change){name, was, now};
    (*n)++;
    return BG_OK;
}

static bg_status compare_base(bg_report_model *m, const cJSON *base)
{
    const cJSON *bchecks = cJSON_GetObjectItemCaseSensitive(base, "checks"), *c;
    bg_status st = BG_OK;
    cJSON_ArrayForEach(c, m->checks) {
        const char *name = bg_json_str(c, "name"), *now = bg_json_str(c, "verdict");
        if (!name)
            continue;
        const char *was = verdict_in(bchecks, name);
        if (!was)
            st = st ? st : push_change(&m->added, &m->nadded, name, NULL, now);
        else if (now && strcmp(was, now))
            st = st ? st : push_change(&m->changed, &m->nchanged, name, was, now);
    }
    cJSON_ArrayForEach(c, bchecks) {
        const char *name = bg_json_str(c, "name");
        if (name && !verdict_in(m->checks, name))
            st = st ? st : push_change(&m->vanished, &m->nvanished, name, bg_json_str(c, "verdict"),
                                       NULL);
    }
    return st;
}

/* ---- baselines history ---------------------------------------------------- */

static void load_baseline(bg_report_model *m, const char *dir)
{
    const char *key = bg_json_str(cJSON_GetObjectItemCaseSensitive(m->doc, "host"), "key");
    if (!dir || !key)
        return;
    snprintf(m->baseline_path, sizeof m->baseline_path, "%s/%s.json", dir, key);
    FILE *probe = fopen(m->baseline_path, "r");
    if (!probe)
        return; /* no baseline for this host: the perf suite says so in its skip */
    fclose(probe);
    if (bg_json_load(m->baseline_path, "bg-report: baseline", &m->baseline) != BG_OK)
        m->baseline = NULL; /* the error line is printed; the report goes on without history */
}

int bg_report_history(const bg_report_model *m, const char *bench, double *vals,
                      const char **dates, int max)
{
    const cJSON *hist = cJSON_GetObjectItemCaseSensitive(m->baseline, "history");
    int n = cJSON_GetArraySize(hist), k = 0;
    for (int i = n - 1; i >= 0 && k < max; i--) { /* stored newest first */
        const cJSON *e = cJSON_GetArrayItem(hist, i);
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(
            cJSON_GetObjectItemCaseSensitive(e, "medians"), bench);
        if (!cJSON_IsNumber(v))
            continue;
        vals[k] = v->valuedouble;
        dates[k++] = bg_json_str(e, "date");
    }
    return k;
}

/* ---- doc links and next steps --------------------------------------------- */

const char *bg_report_doc_for(const cJSON *c)
{
    const char *s = bg_json_str(c, "suite"), *n = bg_json_str(c, "name");
    const char *v = bg_json_str(c, "verdict");
    s = s ? s : "";
    n = n ? n : "";
    if (ends_with(n, ".checks") && bg_json_str(c, "test"))
        return "docs/writing-a-suite.md#tests-interface";
    if (strcmp(s, "nan_semantics") == 0)
        return v && strcmp(v, "xpass") == 0 ? "docs/nan_semantics.md#known-deviations"
                                             : "docs/nan_semantics.md#deviations-rules-and-grouping";
    if (strcmp(s, "memory_order") == 0)
        return "docs/memory_order.md#verdicts";
    if (strcmp(s, "perf_budgets") == 0)
        return strncmp(n, "perf.baseline", 13) == 0 ? "docs/perf_budgets.md#baselines"
                                                    : "docs/perf_budgets.md#modes-of-bg-perf";
    if (strcmp(s, "digest_agreement") == 0)
        return strncmp(n, "digest.build", 12) == 0 ? "docs/digest_agreement.md#build-variants-builds"
                                                   : "docs/digest_agreement.md#divergence-report";
    return "docs/writing-a-suite.md#checks-interface";
}

const char *bg_report_suite_doc(const bg_report_model *m, const char *suite)
{
    static char page[200];
    const cJSON *c;
    cJSON_ArrayForEach(c, m->checks) {
        const char *s = bg_json_str(c, "suite");
        if (s && strcmp(s, suite) == 0) {
            const char *d = bg_report_doc_for(c);
            snprintf(page, sizeof page, "%.*s", (int)strcspn(d, "#"), d);
            return page;
        }
    }
    return "docs/writing-a-suite.md";
}

void bg_report_rerun(const cJSON *c, char *buf, size_t n)
{
    const char *test = bg_json_str(c, "test");
    if (test)
        snprintf(buf, n, "ctest --test-dir build/gate -R '^%s$' --output-on-failure", test);
    else
        snprintf(buf, n, "%s", "");
}

void bg_report_next_step(const cJSON *c, char *buf, size_t n)
{
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(c, "details");
    const char *s = bg_json_str(c, "suite"), *name = bg_json_str(c, "name");
    const char *v = bg_json_str(c, "verdict"), *test = bg_json_str(c, "test");
    const char *action = bg_json_str(d, "action") ? bg_json_str(d, "action") : bg_json_str(d, "fix");
    s = s ? s : "";
    name = name ? name : "";
    const char *obs = bg_json_str(c, "observed");
    obs = obs ? obs : "";
    const char *what;
    if (action)
        what = action;
    else if (ends_with(name, ".checks") && test)
        what = "the test recorded no checks: it did not run or died before bg-run could record it; "
               "read its output in the ctest log";
    else if (strstr(obs, "timed out") || strstr(obs, "still running") || strstr(obs, "crashed") ||
             strstr(obs, "killed"))
        what = "the test did not finish (timeout or crash): rerun it alone; a loaded host explains a "
               "timeout that passes alone, a hang or crash that repeats is a defect (its output is in "
               "the ctest log)";
    else if (ends_with(name, ".probe"))
        what = "the probe did not produce a usable result: read its output in the ctest log";
    else if (v && strcmp(v, "xpass") == 0)
        what = bg_json_str(d, "known")
                   ? "a listed known deviation no longer happens: remove its line (details.known) "
                     "in the same pull request"
                   : "a listed known deviation no longer happens: remove its line";
    else if (strcmp(s, "nan_semantics") == 0)
        what = "a result differs from the golden fixture: a change of the code or build is the "
               "defect to fix; a runner's own deviation gets a known-deviation line with its "
               "upstream reference";
    else if (strcmp(s, "memory_order") == 0 && ends_with(name, ".forbidden"))
        what = "a forbidden outcome was seen: the accessors or the runner break x86-TSO; reproduce "
               "with more --iterations and compare with the known deviations";
    else if (strcmp(s, "perf_budgets") == 0 && strncmp(name, "perf.baseline", 13) == 0)
        what = "slower than this host's baseline beyond its band: find the change, or, if it is "
               "intended, record a new baseline with ci/update-baselines --approve \"<why>\"";
    else if (strcmp(s, "perf_budgets") == 0 && bg_json_num(d, "ratio", 0) > 0)
        what = "slower than the base beyond noise and band: profile the benchmark named "
               "(bg-perf callgrind gives instruction counts) or revert the change";
    else if (strcmp(s, "digest_agreement") == 0)
        what = "a variant's digest or flags left the fixture: the first differing checkpoint and "
               "the variant are in details; fix the build or code, never the fixture";
    else
        what = "compare expected and observed; the check's details hold the evidence";
    snprintf(buf, n, "%s", what);
}

/* ---- the model ------------------------------------------------------------ */

bg_status bg_report_model_build(bg_report_model *m, const cJSON *doc, const cJSON *base,
                                const char *base_path, const char *baselines_dir)
{
    memset(m, 0, sizeof *m);
    m->doc = doc;
    m->checks = cJSON_GetObjectItemCaseSensitive(doc, "checks");
    m->run = cJSON_GetObjectItemCaseSensitive(doc, "run");
    m->summary = cJSON_GetObjectItemCaseSensitive(doc, "summary");
    m->perf_base = bg_json_str(m->run, "perf_base");
    if (m->perf_base && !*m->perf_base)
        m->perf_base = NULL;
    int n = cJSON_GetArraySize(m->checks);
    m->bad = calloc((size_t)n + 1, sizeof *m->bad);
    m->perf = calloc((size_t)n + 1, sizeof *m->perf);
    m->rates = calloc((size_t)n + 1, sizeof *m->rates);
    m->vt = calloc((size_t)n + 1, sizeof *m->vt);
    bg_status st = m->bad && m->perf && m->rates && m->vt ? BG_OK : BG_E_NOMEM;
    const cJSON *c;
    cJSON_ArrayForEach(c, m->checks) {
        if (st)
            break;
        const char *v = bg_json_str(c, "verdict");
        m->ntotal++;
        if (is_bad(v))
            m->bad[m->nbad++] = c;
        if (v && strcmp(v, "inconclusive") == 0)
            st = add_cause(m, c);
        if (!st)
            st = add_inferred(m, c);
        m->nperf += perf_of(c, &m->perf[m->nperf]);
        m->nrates += rate_of(c, &m->rates[m->nrates]);
        if (bg_report_variant_of(c))
            m->vt[m->nvt++] = c;
    }
    if (!st)
        st = perf_order(m);
    if (m->ncauses > 1)
        qsort(m->causes, (size_t)m->ncauses, sizeof *m->causes, cmp_cause);
    m->verdict = m->nbad || m->ntotal == 0 ? "FAIL" : "PASS";
    if (!st)
        st = build_matrices(m);
    if (!st && base) {
        m->base_path = base_path ? base_path : "base";
        st = compare_base(m, base);
    }
    if (!st)
        load_baseline(m, baselines_dir);
    if (st)
        return bg_fail(st, "bg-report", "out of memory building the report");
    return BG_OK;
}

void bg_report_model_free(bg_report_model *m)
{
    for (int i = 0; i < m->ncauses; i++)
        free(m->causes[i].checks);
    for (int i = 0; i < m->nmx; i++) {
        free(m->mx[i].rows);
        free(m->mx[i].cols);
        free(m->mx[i].cells);
        free(m->mx[i].row_cause);
    }
    free(m->causes);
    for (int i = 0; i < m->ninferred; i++)
        free(m->inferred[i].checks);
    free(m->inferred);
    free(m->mx);
    free(m->bad);
    free(m->perf);
    free(m->rates);
    free(m->vt);
    free(m->added);
    free(m->vanished);
    free(m->changed);
    cJSON_Delete(m->baseline);
    memset(m, 0, sizeof *m);
}

int bg_report_run_key_shown(const char *key)
{
    return strcmp(key, "not_checked") != 0;
}

void bg_report_coverage(const bg_report_model *m, char *buf, size_t n)
{
    size_t used = 0;
    if (!n)
        return;
    buf[0] = '\0';
#define ADD(...)                                                                          \
    do {                                                                                  \
        int k_ = used < n ? snprintf(buf + used, n - used, __VA_ARGS__) : 0;            \
        used = k_ < 0 ? n : used + (size_t)k_;                                            \
    } while (0)
    const char *nc = bg_json_str(m->run, "not_checked");
    if (nc && *nc)
        ADD("not checked: %s. ", nc);
    else if (nc)
        ADD("not checked: every runner of the registry ran here. ");
    const cJSON *s;
    int first = 1;
    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(m->doc, "suites")) {
        int total = 0;
        for (int v = 0; v < BG_VERDICT_COUNT; v++)
            total += (int)bg_json_num(s, bg_verdict_name((bg_verdict)v), 0);
        int skip = (int)bg_json_num(s, "skip", 0);
        ADD("%s%s %d of %d check%s ran", first ? "Ran: " : "; ", s->string, total - skip, total,
            total == 1 ? "" : "s");
        if (skip)
            ADD(" (%d skip)", skip);
        first = 0;
    }
    if (!first)
        ADD(".");
#undef ADD
    if (used >= n && n > 4)
        memcpy(buf + n - 4, "...", 4);
}

const cJSON *bg_report_variant_of(const cJSON *check)
{
    const cJSON *vt = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(check, "details"),
                                                       "variant_table");
    return cJSON_IsObject(vt) && bg_json_str(vt, "version") && bg_json_str(vt, "variant") ? vt : NULL;
}

void bg_report_variant_cell(const cJSON *check, char *buf, size_t n)
{
    const cJSON *vt = bg_report_variant_of(check);
    const char *v = bg_json_str(vt, "verdict"), *why = bg_json_str(vt, "why");
    if (!vt || !cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(vt, "ratio"))) {
        snprintf(buf, n, "not measured: %s", why ? why : "?");
        return;
    }
    const char *cv = bg_json_str(check, "verdict");
    snprintf(buf, n, "%.4f [%.4f, %.4f] %s%s", bg_json_num(vt, "ratio", 0), bg_json_num(vt, "lo", 0),
             bg_json_num(vt, "hi", 0), v ? v : "?",
             bg_json_str(vt, "gate") && cv && !strcmp(cv, "fail") ? " (gated: FAIL)" : "");
}

const char *bg_report_variant_caption(void)
{
    return "H/s of each build variant over its reference's (the shipped build of the same RandomX "
           "version; the shipped v2 over the shipped v1), light-mode JIT hashing with hardware AES, "
           "variant and reference in duet pairs on this host; interval at 1 - 2 alpha; gain, loss or "
           "no useful gain by two one-sided tests against a margin of +-2 %, undecided when the "
           "interval reaches past a margin (docs/perf_budgets.md \"The variant table\"). It informs: "
           "only a verdict budgets.json variant_table gates fails. Upstream's figure for v2 against "
           "v1: 98.55 % of v1's hash rate (26791.7 vs 27186.1 H/s, full-memory mining, AMD Ryzen 9 "
           "9950X at 285 W; section 4, Performance impact, of design_v2.md in RandomX v2.0's doc folder).";
}

/* Where the variant table goes: beside the digest suite's build variants (their
 * chain H/s, no verdict) and phase profile when the digest suite ran, else
 * under perf_budgets; NULL without rows. */
const char *bg_report_variant_home(const bg_report_model *m)
{
    if (!m->nvt)
        return NULL;
    const cJSON *suites_obj = cJSON_GetObjectItemCaseSensitive(m->doc, "suites");
    return cJSON_GetObjectItemCaseSensitive(suites_obj, "digest_agreement") ? "digest_agreement"
                                                                            : "perf_budgets";
}
