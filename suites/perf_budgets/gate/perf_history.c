/* perf_history.c — see perf_history.h. */
#include "perf_history.h"

#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_changepoint.h"
#include "buildgate/bg_json.h"
#include "perf_budget.h"

#define HISTORY_SCHEMA 1

bg_status perf_history_load(const char *path, int missing_ok, cJSON **doc)
{
    *doc = NULL;
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOENT && missing_ok) {
            *doc = cJSON_CreateObject();
            cJSON_AddNumberToObject(*doc, "schema", HISTORY_SCHEMA);
            cJSON_AddArrayToObject(*doc, "runs");
            return *doc ? BG_OK : bg_fail(BG_E_NOMEM, "history", "out of memory");
        }
        return bg_fail(BG_E_IO, "history", "%s: %s", path, strerror(errno));
    }
    fclose(f);
    bg_status st = bg_json_load(path, "history", doc);
    if (st == BG_E_PARSE)
        return BG_E_FIXTURE; /* stored data that does not parse is corrupt: never rewritten */
    if (st != BG_OK)
        return st;
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(*doc, "runs"), *r;
    const char *why = NULL;
    if (bg_json_num(*doc, "schema", -1) != HISTORY_SCHEMA)
        why = "\"schema\" is not 1";
    else if (!cJSON_IsArray(runs))
        why = "no \"runs\" array";
    if (why) { /* the file's own fault, not a run's */
        cJSON_Delete(*doc);
        *doc = NULL;
        return bg_fail(BG_E_FIXTURE, "history", "%s: the top level: %s (docs/perf_budgets.md \"Change "
                                                "points over main's history\")", path, why);
    }
    int i = 0;
    cJSON_ArrayForEach(r, runs) {
        if (why)
            break;
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(r, "values"), *e;
        if (!bg_json_str(r, "commit") || !bg_json_str(r, "host") || !cJSON_IsObject(v))
            why = "a run without commit, host or values";
        cJSON_ArrayForEach(e, v) {
            double x = bg_json_num(e, "value", NAN);
            if (!why && !(isfinite(x) && x > 0))
                why = "a value that is not a positive finite number";
        }
        if (!why)
            i++;
    }
    if (why) {
        cJSON_Delete(*doc);
        *doc = NULL;
        return bg_fail(BG_E_FIXTURE, "history", "%s: runs[%d]: %s (docs/perf_budgets.md \"Change points "
                                                "over main's history\")", path, i, why);
    }
    return BG_OK;
}

bg_status perf_history_append(cJSON *hist, const cJSON *results, const char *commit,
                              const char *date, int *added)
{
    *added = 0;
    const cJSON *run = cJSON_GetObjectItemCaseSensitive(results, "run");
    if (!commit)
        commit = bg_json_str(run, "commit");
    if (!date)
        date = bg_json_str(results, "generated");
    const char *host = bg_json_str(cJSON_GetObjectItemCaseSensitive(results, "host"), "key");
    if (!commit || !*commit)
        return bg_fail(BG_E_USAGE, "append", "the results record no run.commit: give --commit SHA");
    if (!host)
        return bg_fail(BG_E_USAGE, "append", "the results have no host.key (not a results.json?)");
    if (!date)
        date = "";
    cJSON *runs = cJSON_GetObjectItemCaseSensitive(hist, "runs"), *r;
    cJSON_ArrayForEach(r, runs) { /* one run per commit and host: a re-run job adds nothing */
        if (!strcmp(bg_json_str(r, "commit"), commit) && !strcmp(bg_json_str(r, "host"), host)) {
            printf("bg-perf-history: commit %s on %s is in the history already: nothing appended\n",
                   commit, host);
            return BG_OK;
        }
    }
    cJSON *nr = cJSON_CreateObject(), *values = cJSON_CreateObject();
    if (!nr || !values) {
        cJSON_Delete(nr), cJSON_Delete(values);
        return bg_fail(BG_E_NOMEM, "append", "out of memory");
    }
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(results, "checks")) {
        const char *suite = bg_json_str(c, "suite"), *name = bg_json_str(c, "name");
        const cJSON *d = cJSON_GetObjectItemCaseSensitive(c, "details");
        double x = bg_json_num(d, "median_head", NAN);
        const char *metric = bg_json_str(d, "metric");
        if (!suite || strcmp(suite, "perf_budgets") || !name || !metric || !(isfinite(x) && x > 0) ||
            cJSON_GetObjectItemCaseSensitive(values, name))
            continue;
        cJSON *e = cJSON_AddObjectToObject(values, name);
        cJSON_AddStringToObject(e, "metric", metric);
        const cJSON *hib = cJSON_GetObjectItemCaseSensitive(d, "higher_is_better");
        if (cJSON_IsBool(hib)) /* the direction bg-perf judged it in (budgets.json) */
            cJSON_AddBoolToObject(e, "higher_is_better", cJSON_IsTrue(hib));
        cJSON_AddNumberToObject(e, "value", x);
        cJSON_AddNumberToObject(e, "n", bg_json_num(d, "n_head", 0));
        ++*added;
    }
    if (!*added) {
        cJSON_Delete(nr), cJSON_Delete(values);
        return bg_fail(BG_E_USAGE, "append", "the results hold no perf check with details.median_head");
    }
    cJSON_AddStringToObject(nr, "commit", commit);
    cJSON_AddStringToObject(nr, "date", date);
    cJSON_AddStringToObject(nr, "host", host);
    cJSON_AddItemToObject(nr, "values", values);
    cJSON_AddItemToArray(runs, nr);
    return BG_OK;
}

bg_status perf_history_acks_load(const char *path, cJSON **doc)
{
    static const char *const top[] = {"schema", "acknowledged", NULL},
                             *const entry[] = {"check", "good", "bad", "reason", "host", "by", NULL};
    bg_status st = bg_json_load(path, "acknowledged", doc);
    if (st != BG_OK)
        return st;
    st = bg_json_known_keys(*doc, top, path, "the top level");
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(*doc, "acknowledged"), *a;
    const char *why = NULL, *top_why = NULL;
    int i = 0;
    if (st == BG_OK && bg_json_num(*doc, "schema", -1) != 1)
        top_why = "\"schema\" is not 1";
    else if (st == BG_OK && !cJSON_IsArray(list))
        top_why = "no \"acknowledged\" array";
    if (top_why) /* the file's own fault, not an entry's */
        st = bg_fail(BG_E_PARSE, path, "the top level: %s (docs/perf_budgets.md \"Change points over "
                                       "main's history\")", top_why);
    cJSON_ArrayForEach(a, list) {
        if (st != BG_OK || why)
            break;
        char where[48];
        snprintf(where, sizeof where, "acknowledged[%d]", i);
        st = bg_json_known_keys(a, entry, path, where);
        const char *r = bg_json_str(a, "reason");
        while (r && (*r == ' ' || *r == '\t'))
            r++;
        if (st != BG_OK)
            break;
        if (!cJSON_IsObject(a) || !bg_json_str(a, "check") || !*bg_json_str(a, "check") ||
            !bg_json_str(a, "good") || !*bg_json_str(a, "good") || !bg_json_str(a, "bad") ||
            !*bg_json_str(a, "bad"))
            why = "needs \"check\", \"good\" and \"bad\" (the range bg-perf-history changes named)";
        else if (!r || !*r)
            why = "needs a \"reason\": why the step is accepted";
        else
            i++;
    }
    if (st == BG_OK && why)
        st = bg_fail(BG_E_PARSE, path, "acknowledged[%d]: %s (docs/perf_budgets.md \"Change points over "
                                       "main's history\")", i, why);
    if (st != BG_OK) {
        cJSON_Delete(*doc);
        *doc = NULL;
    }
    return st;
}

/* The place of the commit prefix names among the history's distinct commits
 * (in order of first appearance), -1 when none, -2 when more than one. */
static int commit_ordinal(const cJSON *runs, const char *prefix)
{
    const cJSON *r, *q;
    int ord = 0, found = -1;
    size_t k = strlen(prefix);
    cJSON_ArrayForEach(r, runs) {
        const char *c = bg_json_str(r, "commit");
        int dup = 0;
        for (q = runs->child; q != r && !dup; q = q->next)
            dup = !strcmp(bg_json_str(q, "commit"), c);
        if (dup)
            continue;
        if (!strncmp(c, prefix, k)) {
            if (found >= 0)
                return -2;
            found = ord;
        }
        ord++;
    }
    return found;
}

/* The acknowledgement covering a slowdown of check on host between the
 * commits good and bad (perf_history.h), or NULL; *st BG_E_PARSE for an
 * ambiguous prefix. */
static const cJSON *acknowledged(const perf_changes_opts *o, const cJSON *runs, const char *host,
                                 const char *check, const char *good, const char *bad, bg_status *st)
{
    const cJSON *a;
    int idx = 0;
    cJSON_ArrayForEach(a, o->acks) {
        const char *h = bg_json_str(a, "host"), *ag = bg_json_str(a, "good"), *ab = bg_json_str(a, "bad");
        if (strcmp(bg_json_str(a, "check"), check) || (h && strcmp(h, host))) {
            idx++;
            continue;
        }
        int lo = commit_ordinal(runs, ag), hi = commit_ordinal(runs, ab);
        if (lo == -2 || hi == -2) {
            *st = bg_fail(BG_E_PARSE, o->acks_path ? o->acks_path : "acknowledged",
                          "acknowledged[%d]: commit '%s' names more than one commit of the history: give more "
                          "of it", idx, lo == -2 ? ag : ab);
            return NULL;
        }
        int g = commit_ordinal(runs, good), b = commit_ordinal(runs, bad);
        /* the same step: both ends within 2 commits of the acknowledged ones (the
         * detector may move a step by a run as nights are added); a wider range
         * does not accept a later step of the same check */
        if (lo >= 0 && hi >= 0 && abs(g - lo) <= 2 && abs(b - hi) <= 2)
            return a;
        idx++;
    }
    return NULL;
}

/* 1 when a larger value of metric is worse, 0 when smaller is: the run's
 * recorded direction (details.higher_is_better of its check, from
 * budgets.json), else the metric's known direction (perf_budget.h, the one
 * list: real_time, cpu_time / items_per_second, bytes_per_second), else
 * larger is worse (instructions, estimated cycles: costs). */
static int larger_is_worse(const char *metric, const cJSON *value)
{
    const cJSON *hib = cJSON_GetObjectItemCaseSensitive(value, "higher_is_better");
    if (cJSON_IsBool(hib))
        return !cJSON_IsTrue(hib);
    return perf_metric_known_direction(metric) != 0;
}

/* One series: the values of check on host, in history order, with the run of each. */
typedef struct series {
    double *x;
    const cJSON **run;
    size_t n;
    const char *metric;
    const cJSON *last; /* the newest value entry: its recorded direction */
} series;

static bg_status collect(const cJSON *runs, const char *host, const char *check, series *s)
{
    size_t cap = (size_t)cJSON_GetArraySize(runs);
    s->x = malloc((cap ? cap : 1) * sizeof *s->x);
    s->run = malloc((cap ? cap : 1) * sizeof *s->run);
    s->n = 0;
    if (!s->x || !s->run)
        return bg_fail(BG_E_NOMEM, "changes", "out of memory");
    const cJSON *r;
    cJSON_ArrayForEach(r, runs) {
        if (strcmp(bg_json_str(r, "host"), host))
            continue;
        const cJSON *e = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r, "values"),
                                                          check);
        if (!e)
            continue;
        s->metric = bg_json_str(e, "metric");
        s->last = e;
        s->x[s->n] = bg_json_num(e, "value", NAN);
        s->run[s->n++] = r;
    }
    return BG_OK;
}

static void short_sha(const cJSON *run, char out[13])
{
    snprintf(out, 13, "%.12s", bg_json_str(run, "commit"));
}

static bg_status one_series(const series *s, const cJSON *runs, const char *host, const char *check,
                            const perf_changes_opts *o, FILE *out, FILE *md, int *slowdowns,
                            int *rows, int *acked)
{
    bg_changepoint_opts co = {o->min_size, o->sig, o->permutations, o->seed};
    bg_change ch[64];
    size_t nch = 0;
    bg_status st = bg_edivisive(s->x, s->n, &co, ch, sizeof ch / sizeof ch[0], &nch);
    if (st != BG_OK)
        return st;
    int worse_up = larger_is_worse(s->metric ? s->metric : "", s->last);
    for (size_t i = 0; i < nch; i++) {
        double step = ch[i].after / ch[i].before - 1;
        int slow = (worse_up ? step : -step) >= o->min_step;
        const cJSON *ack = slow ? acknowledged(o, runs, host, check, bg_json_str(s->run[ch[i].at - 1], "commit"),
                                               bg_json_str(s->run[ch[i].at], "commit"), &st)
                                : NULL;
        if (st != BG_OK)
            return st;
        if (ack) { /* accepted on purpose: reported, never failed again */
            slow = 0;
            ++*acked;
        }
        char good[13], bad[13];
        short_sha(s->run[ch[i].at - 1], good);
        short_sha(s->run[ch[i].at], bad);
        const char *gd = bg_json_str(s->run[ch[i].at - 1], "date"), *bd = bg_json_str(s->run[ch[i].at], "date");
        const char *kind = slow ? "SLOWDOWN" : ack ? "acknowledged slowdown"
                                  : (worse_up ? step : -step) > 0 ? "slower (below --min-step)" : "faster";
        fprintf(out, "%s %s on %s: %+.2f %% (%s median %.6g -> %.6g) between %s (%s) and %s (%s), "
                     "runs %zu|%zu, p = %.3g",
                kind, check, host, 100 * step, s->metric ? s->metric : "value", ch[i].before,
                ch[i].after, good, gd ? gd : "?", bad, bd ? bd : "?", ch[i].at, s->n - ch[i].at, ch[i].p);
        if (slow) /* ci/bisect judges perf.callgrind_cycles.* by their estimated cycles too */
            fprintf(out, "; next: ci/bisect --checks %s --good %s --bad %s", check, good, bad);
        if (ack)
            fprintf(out, "; acknowledged %s..%s in %s: %s", bg_json_str(ack, "good"), bg_json_str(ack, "bad"),
                    o->acks_path ? o->acks_path : "?", bg_json_str(ack, "reason"));
        else if (slow)
            fprintf(out, "; or, to accept it: an entry {\"check\": \"%s\", \"good\": \"%s\", \"bad\": \"%s\", "
                         "\"reason\": \"...\"} in suites/perf_budgets/history_acknowledged.json",
                    check, good, bad);
        fprintf(out, "\n");
        int first = (*rows)++ == 0;
        if (md) {
            if (first)
                fprintf(md, "| change | check | host | step | median before → after | commits | p | next |\n"
                            "|---|---|---|---:|---|---|---:|---|\n");
            fprintf(md, "| %s | `%s` | %s | %+.2f %% | %.6g → %.6g | `%s`..`%s` | %.3g | %s%s%s%s%s%s%s%s%s |\n",
                    slow ? "❌ slowdown" : ack ? "☑️ acknowledged slowdown"
                         : (worse_up ? step : -step) > 0 ? "slower, below the step" : "✅ faster",
                    check, host, 100 * step, ch[i].before, ch[i].after, good, bad, ch[i].p,
                    slow ? "`ci/bisect --checks " : "", slow ? check : "", slow ? " --good " : "",
                    slow ? good : "", slow ? " --bad " : "", slow ? bad : "", slow ? "`" : "",
                    ack ? "acknowledged: " : "", ack ? bg_json_str(ack, "reason") : "");
        }
        *slowdowns += slow;
    }
    return BG_OK;
}

bg_status perf_history_changes(const cJSON *hist, const perf_changes_opts *o, FILE *out, FILE *md,
                               int *slowdowns)
{
    *slowdowns = 0;
    regex_t rx;
    if (o->check_re && regcomp(&rx, o->check_re, REG_EXTENDED | REG_NOSUB) != 0)
        return bg_fail(BG_E_USAGE, "changes", "--check: '%s' is not an extended regular expression",
                       o->check_re);
    const cJSON *runs = cJSON_GetObjectItemCaseSensitive(hist, "runs"), *r, *e;
    bg_status st = BG_OK;
    int nseries = 0, rows = 0, acked = 0;
    /* every (host, check) pair once: at its first run */
    int idx = 0;
    cJSON_ArrayForEach(r, runs) {
        const char *host = bg_json_str(r, "host");
        cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(r, "values")) {
            if (st != BG_OK || (o->host && strcmp(o->host, host)) ||
                (o->check_re && regexec(&rx, e->string, 0, NULL, 0) != 0))
                continue;
            int seen = 0, j = 0; /* an earlier run of the same host holds this check */
            for (const cJSON *q = runs->child; q && j < idx && !seen; q = q->next, j++)
                seen = !strcmp(bg_json_str(q, "host"), host) &&
                       cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(q, "values"),
                                                        e->string);
            if (seen)
                continue;
            series s = {0};
            st = collect(runs, host, e->string, &s);
            if (st == BG_OK && s.n >= 2 * o->min_size) {
                nseries++;
                st = one_series(&s, runs, host, e->string, o, out, md, slowdowns, &rows, &acked);
            }
            free(s.x);
            free(s.run);
        }
        idx++;
    }
    if (o->check_re)
        regfree(&rx);
    /* entries that can accept nothing: said, so a typo does not look applied */
    const cJSON *a, *acks = st == BG_OK ? o->acks : NULL;
    int ai = 0;
    cJSON_ArrayForEach(a, acks) {
        const char *ck = bg_json_str(a, "check"), *ag = bg_json_str(a, "good"), *ab = bg_json_str(a, "bad");
        int lo = commit_ordinal(runs, ag), hi = commit_ordinal(runs, ab), known = 0;
        cJSON_ArrayForEach(r, runs) known |= cJSON_GetObjectItemCaseSensitive(
                                                 cJSON_GetObjectItemCaseSensitive(r, "values"), ck) != NULL;
        const char *why = !known ? "no run of the history has that check"
                          : lo < 0 ? "its good commit is not in the history"
                          : hi < 0 ? "its bad commit is not in the history"
                          : lo > hi ? "good comes after bad in the history (reversed)" : NULL;
        if (why)
            fprintf(out, "note: %s: acknowledged[%d] (%s %s..%s) accepts nothing: %s\n",
                    o->acks_path ? o->acks_path : "acknowledged", ai, ck, ag, ab, why);
        ai++;
    }
    if (st == BG_OK) {
        fprintf(out, "bg-perf-history: %d series of at least %zu runs, %d change%s found, %d slowdown%s "
                     "of at least %.1f %% (%d more acknowledged)\n",
                nseries, 2 * o->min_size, rows, rows == 1 ? "" : "s", *slowdowns,
                *slowdowns == 1 ? "" : "s", 100 * o->min_step, acked);
        if (md && !rows)
            fprintf(md, "No change point in %d series of at least %zu runs.\n", nseries, 2 * o->min_size);
    }
    return st;
}
