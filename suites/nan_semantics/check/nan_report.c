/* nan_report.c — see nan_report.h. */
#define _POSIX_C_SOURCE 200809L
#include "nan_report.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_fragment.h"
#include "buildgate/bg_json.h"
#include "buildgate/bg_fixtures.h"
#include "buildgate/bg_proposed.h"
#include "nan_family.h"
#include "nan_propose.h"

nan_group *nan_groups_add(nan_groups *gs, const char *rule, const char *detail, const char *op,
                          int *fresh)
{
    *fresh = 0;
    nan_group *g = NULL;
    for (int i = 0; i < gs->n && !g; i++)
        if (strcmp(gs->g[i].rule, rule) == 0 && strcmp(gs->g[i].detail, detail) == 0)
            g = &gs->g[i];
    if (!g) {
        nan_group *ng = realloc(gs->g, (size_t)(gs->n + 1) * sizeof *ng);
        if (!ng)
            return NULL;
        gs->g = ng;
        g = &gs->g[gs->n++];
        memset(g, 0, sizeof *g);
        snprintf(g->rule, sizeof g->rule, "%s", rule);
        snprintf(g->detail, sizeof g->detail, "%s", detail);
        *fresh = 1;
    }
    g->count++;
    int have = 0;
    for (int i = 0; i < g->n_items && !have; i++)
        have = strcmp(g->items[i], op) == 0;
    if (!have) {
        char **ni = realloc(g->items, (size_t)(g->n_items + 1) * sizeof *ni);
        char *copy = strdup(op);
        if (!ni || !copy) {
            free(copy);
            if (ni)
                g->items = ni;
            return NULL;
        }
        g->items = ni;
        g->items[g->n_items++] = copy;
    }
    /* op list: comma-separated, each once, "..." once full */
    size_t ol = strlen(op), len = strlen(g->ops);
    const char *p = g->ops;
    int seen = 0;
    while ((p = strstr(p, op)) != NULL) {
        if ((p == g->ops || p[-1] == ' ') && (p[ol] == ',' || p[ol] == '\0'))
            seen = 1;
        p += ol;
    }
    if (!seen && !strstr(g->ops, "...")) {
        if (len + ol + 6 < sizeof g->ops)
            snprintf(g->ops + len, sizeof g->ops - len, "%s%s", len ? ", " : "", op);
        else
            snprintf(g->ops + len, sizeof g->ops - len, ", ...");
    }
    return g;
}

void nan_groups_free(nan_groups *gs)
{
    for (int i = 0; i < gs->n; i++) {
        cJSON_Delete(gs->g[i].example);
        for (int j = 0; j < gs->g[i].n_items; j++)
            free(gs->g[i].items[j]);
        free(gs->g[i].items);
    }
    free(gs->g);
    cJSON_Delete(gs->notes);
    memset(gs, 0, sizeof *gs);
}

/* The comma-separated items of list as an array (*out; caller frees with
 * free_items); returns their number. */
static int split_items(const char *list, char ***out)
{
    int n = 0;
    *out = NULL;
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        char **grown = realloc(*out, (size_t)(n + 1) * sizeof *grown);
        if (!grown)
            break;
        *out = grown;
        (*out)[n] = strndup(p, len);
        if (!(*out)[n])
            break;
        n++;
        p += len;
        p += *p == ',';
    }
    return n;
}

static void free_items(char **items, int n)
{
    for (int i = 0; i < n; i++)
        free(items[i]);
    free(items);
}

static void slug(const char *in, char *out, size_t n)
{
    size_t k = 0;
    for (; *in && k + 1 < n; in++)
        out[k++] = isalnum((unsigned char)*in) ? (char)tolower((unsigned char)*in) : '_';
    out[k] = '\0';
}

static cJSON *matrix(const nan_run_info *ri, const char *cell)
{
    cJSON *m = cJSON_CreateObject();
    cJSON_AddStringToObject(m, "table", "runner × context");
    cJSON_AddStringToObject(m, "row", ri->runner);
    cJSON_AddStringToObject(m, "col", ri->context);
    cJSON_AddStringToObject(m, "cell", cell);
    return m;
}

/* The table's identity on a check (docs/results.schema.json; bg-report
 * --merge reads it, lib/tools/merge_nan.c): runner, its version, context and
 * the MXCSR modes run. */
static void add_identity(cJSON *d, const nan_run_info *ri)
{
    cJSON_AddStringToObject(d, "runner", ri->runner);
    cJSON_AddStringToObject(d, "runner_version", ri->version);
    cJSON_AddStringToObject(d, "context", ri->context);
    cJSON_AddStringToObject(d, "modes", ri->modes ? ri->modes : "base");
}

/* " (N sub-checks: <what>)" when the context counts the parts of its cases, else "". */
static void subchecks_text(const nan_groups *gs, char *out, size_t n)
{
    if (gs->subchecks)
        snprintf(out, n, " (%ld sub-checks: %s)", gs->subchecks,
                 gs->subchecks_what ? gs->subchecks_what : "parts of a case");
    else
        out[0] = '\0';
}

static void write_fragment(const nan_run_info *ri, const nan_groups *gs, const bg_verdict *v,
                           nan_known *kd)
{
    FILE *f = bg_fragment_open("nan_semantics", ri->test);
    if (!f)
        return;
    fprintf(f, "#### %s: %s (%s), context %s\n\n", ri->test, ri->runner, ri->version, ri->context);
    char parts[200];
    subchecks_text(gs, parts, sizeof parts);
    fprintf(f, "%ld cases compared%s, %ld not compared; %d deviation group(s).\n\n", gs->checked, parts,
            gs->skipped, gs->n);
    if (gs->n > 0) {
        fprintf(f, "| verdict | rule | detail | cases | ops | example: expected | observed |\n");
        fprintf(f, "|---|---|---|---|---|---|---|\n");
        for (int i = 0; i < gs->n; i++) {
            const nan_group *g = &gs->g[i];
            fprintf(f, "| %s | %s | %s | %ld | %s | `%s` | `%s` |\n", bg_verdict_name(v[i]), g->rule,
                    g->detail, g->count, g->ops, g->expected, g->observed);
        }
    }
    for (int i = 0; i < gs->n; i++)
        if (v[i] == BG_FAIL && strcmp(gs->g[i].rule, "probe-failed") != 0) {
            fprintf(f, "\nNo known line covers the failing groups of %s %s: proposed lines are in "
                    "`proposed-known/nan_semantics/%s.tsv`; adopt them after review with `%s` "
                    "(docs/nan_semantics.md#runner-versions).\n", ri->runner, ri->version,
                    ri->known_list, BG_PROPOSED_ADOPT);
            break;
        }
    for (int i = 0; i < kd->n; i++)
        if (!kd->lines[i].used)
            fprintf(f, "\nKnown deviation %s:%d (%s %s) %s%s.\n", kd->path, kd->lines[i].lineno,
                    kd->lines[i].rule, kd->lines[i].detail,
                    ri->known_unjudged ? "not judged: " : "was not observed",
                    ri->known_unjudged ? ri->known_unjudged : "");
    fclose(f);
}

bg_status nan_report_emit(bg_checks *c, const nan_run_info *ri, nan_groups *gs, nan_known *kd)
{
    bg_status st = BG_OK;
    int fails = 0, xfails = 0, proposals = 0, inferred = 0;
    bg_verdict *v = calloc((size_t)gs->n + 1, sizeof *v);
    if (!v)
        return BG_E_NOMEM;
    for (int i = 0; i < gs->n; i++) {
        nan_group *g = &gs->g[i];
        nan_known_line *ml[8];
        char missing[NAN_KNOWN_OPS_MAX], propose_ops[NAN_KNOWN_OPS_MAX]; /* a whole ops column */
        int nm = nan_known_cover(kd, g->rule, g->detail, (const char *const *)g->items, g->n_items, ml,
                                 8, missing, sizeof missing);
        nan_known_line *kl = nm > 0 && !*missing ? ml[0] : NULL;
        v[i] = kl ? BG_XFAIL : BG_FAIL;
        kl ? xfails++ : fails++;
        inferred += kl && kd->inferred;
        char name[512], ds[100];
        slug(g->detail, ds, sizeof ds);
        snprintf(name, sizeof name, "%s.%s%s%s", ri->test, g->rule, *ds ? "." : "", ds);
        cJSON *d = cJSON_CreateObject();
        cJSON_AddStringToObject(d, "rule", g->rule);
        cJSON_AddStringToObject(d, "detail", g->detail);
        cJSON_AddNumberToObject(d, "cases", (double)g->count);
        cJSON_AddStringToObject(d, "ops", g->ops);
        /* every op of the group: ci's nan-check --regen-known-ops reads it */
        cJSON_AddItemToObject(d, "op_list",
                              cJSON_CreateStringArray((const char *const *)g->items, g->n_items));
        add_identity(d, ri);
        if (nm > 0) {
            cJSON *kls = cJSON_AddArrayToObject(d, "known_lines");
            for (int j = 0; j < nm && j < 8; j++) {
                char where[1100];
                snprintf(where, sizeof where, "%s:%d", kd->path, ml[j]->lineno);
                cJSON_AddItemToArray(kls, cJSON_CreateString(where));
            }
        }
        if (!kl) {
            char proposed[NAN_KNOWN_OPS_MAX + 2048];
            /* only what no line lists: a known line widens by a reviewed addition */
            if (*missing) {
                char **parts = NULL;
                int np = split_items(missing, &parts);
                if (nan_family_compress((const char *const *)parts, np, propose_ops, sizeof propose_ops))
                    snprintf(propose_ops, sizeof propose_ops, "%s", missing);
                free_items(parts, np);
            } else
                propose_ops[0] = '\0';
            if (nm > 0) {
                char what[NAN_KNOWN_OPS_MAX + 2048];
                snprintf(what, sizeof what, "%s:%d (%s %s) does not list op(s) %s seen here: a new "
                         "deviation, not the known one", kd->path, ml[0]->lineno, g->rule,
                         *g->detail ? g->detail : "-", missing);
                cJSON_AddStringToObject(d, "new_ops", missing);
                cJSON_AddStringToObject(d, "uncovered", what);
            }
            char pline[NAN_KNOWN_OPS_MAX + 2048];
            if (nan_propose(ri, g, propose_ops, proposed, sizeof proposed, pline, sizeof pline) != BG_OK)
                st = BG_E_IO;
            if (*pline)
                cJSON_AddStringToObject(d, "proposed_line", pline);
            if (*proposed) {
                cJSON_AddStringToObject(d, "proposed", proposed);
                char action[10000], edited[9000] = "";
                if (ri->fixture) /* or the stored value was edited by hand */
                    bg_fixture_hint(BG_FIXTURE_DIFF, ri->fixture, ri->fixture_rel, edited, sizeof edited);
                if (*edited && ri->runner && strcmp(ri->runner, "native") == 0)
                    /* the reference itself differs from its own record: a hand edit
                       of the fixture is the likely cause, so it comes first */
                    snprintf(action, sizeof action, "the native run differs from the stored fixture: "
                             "%s; only if this host's CPU really computes otherwise, review the proposed "
                             "line, then " BG_PROPOSED_ADOPT " (docs/nan_semantics.md#runner-versions)",
                             edited);
                else
                    snprintf(action, sizeof action, "no known line covers this deviation of this runner "
                             "version: review the proposed line, then " BG_PROPOSED_ADOPT
                             " (docs/nan_semantics.md#runner-versions)%s%s", *edited ? "; " : "", edited);
                cJSON_AddStringToObject(d, "action", action);
                proposals++;
            }
        }
        if (kl) {
            char where[1100];
            snprintf(where, sizeof where, "%s:%d", kd->path, kl->lineno);
            cJSON_AddStringToObject(d, "known", where);
            cJSON_AddStringToObject(d, "reference", kl->reference);
        }
        if (kl && kd->inferred) {
            /* known at both ends of the bracket, not measured here: the verdict
               is inferred, and this run's measurement is proposed for adoption */
            char bracket[200], pline[NAN_KNOWN_OPS_MAX + 2048], ppath[400], ops_all[NAN_KNOWN_OPS_MAX];
            nan_known_bracket_text(kd, ri->version, bracket, sizeof bracket);
            cJSON_AddStringToObject(d, "inferred", bracket);
            if (nan_family_compress((const char *const *)g->items, g->n_items, ops_all, sizeof ops_all))
                ops_all[0] = '\0';
            if (*ops_all && nan_propose(ri, g, ops_all, ppath, sizeof ppath, pline, sizeof pline) != BG_OK)
                st = BG_E_IO;
            if (*ops_all && *pline)
                cJSON_AddStringToObject(d, "proposed_line", pline);
        }
        const char *rep = bg_json_str(g->example, "reproducer");
        if (rep) /* report.md prints it in the failure entry (lib/tools/report_md.c) */
            cJSON_AddStringToObject(d, "reproducer", rep);
        if (g->example) {
            cJSON_AddItemToObject(d, "example", g->example);
            g->example = NULL;
        }
        if (bg_check_emit(c, name, v[i], cJSON_CreateString(g->expected),
                          cJSON_CreateString(g->observed), d) != BG_OK)
            st = BG_E_IO;
    }
    int unjudged = 0, differs = 0;
    for (int i = 0; i < kd->n; i++) {
        nan_known_line *l = &kd->lines[i];
        if (l->used)
            continue;
        if (kd->inferred) { /* an inferred line that did not happen: information, no xpass */
            int told = 0;
            for (int j = 0; j < i && !told; j++)
                told = !kd->lines[j].used && strcmp(kd->lines[j].rule, l->rule) == 0 &&
                       strcmp(kd->lines[j].detail, l->detail) == 0;
            if (told || !ri->probe_ok)
                continue;
            differs++;
            char name[512], exp[400], obs[400], where[1100], ds[100], bracket[200];
            slug(l->detail, ds, sizeof ds);
            nan_known_bracket_text(kd, ri->version, bracket, sizeof bracket);
            snprintf(name, sizeof name, "%s.bracket.%s%s%s", ri->test, l->rule, *ds ? "." : "", ds);
            snprintf(exp, sizeof exp, "deviation %s (%s), seen at measured %s and %s", l->rule,
                     *l->detail ? l->detail : "-", kd->lo, kd->hi);
            snprintf(obs, sizeof obs, "not seen: %s differs from its bracket here (information, not "
                     "an xpass: %s)", ri->version, bracket);
            snprintf(where, sizeof where, "%s:%d", kd->path, l->lineno);
            cJSON *d = cJSON_CreateObject();
            add_identity(d, ri);
            cJSON_AddStringToObject(d, "known", where);
            cJSON_AddStringToObject(d, "inferred", bracket);
            if (bg_check_emit(c, name, BG_PASS, cJSON_CreateString(exp), cJSON_CreateString(obs), d) != BG_OK)
                st = BG_E_IO;
            continue;
        }
        if (ri->known_unjudged) { /* not run where it was measured: no verdict on it */
            unjudged++;
            continue;
        }
        char name[512], exp[400], where[1100];
        snprintf(name, sizeof name, "%s.known.%s", ri->test, l->rule);
        snprintf(exp, sizeof exp, "deviation %s (%s) as listed", l->rule, l->detail);
        snprintf(where, sizeof where, "%s:%d", kd->path, l->lineno);
        cJSON *d = cJSON_CreateObject();
        add_identity(d, ri);
        cJSON_AddStringToObject(d, "known", where);
        cJSON_AddStringToObject(d, "reference", l->reference);
        cJSON_AddStringToObject(d, "action", ri->probe_ok ? "the runner no longer deviates here: "
                                                            "remove the line"
                                                          : "not checkable: the probe did not finish");
        if (bg_check_emit(c, name, ri->probe_ok ? BG_XPASS : BG_INCONCLUSIVE, cJSON_CreateString(exp),
                          cJSON_CreateString("not observed"), d) != BG_OK)
            st = BG_E_IO;
    }
    int stale = 0;
    for (int i = 0; i < kd->n; i++)
        stale += !kd->lines[i].used && ri->probe_ok && !ri->known_unjudged && !kd->inferred;
    if (unjudged) {
        char t[500];
        snprintf(t, sizeof t, "%d known line(s) not judged: %s", unjudged, ri->known_unjudged);
        gs->notes = gs->notes ? gs->notes : cJSON_CreateArray();
        cJSON_AddItemToArray(gs->notes, cJSON_CreateString(t));
    }
    char cell[96], obs[400];
    /* cells say their unit: deviation groups (one root cause each) or cases */
    if (fails)
        snprintf(cell, sizeof cell, "%d unexpected deviation group%s", fails, fails == 1 ? "" : "s");
    else if (stale)
        snprintf(cell, sizeof cell, "%d known deviation%s not seen", stale, stale == 1 ? "" : "s");
    else if (xfails)
        snprintf(cell, sizeof cell, "%d known deviation group%s", xfails, xfails == 1 ? "" : "s");
    else
        snprintf(cell, sizeof cell, "%ld cases equal", gs->checked);
    char parts[200];
    subchecks_text(gs, parts, sizeof parts);
    snprintf(obs, sizeof obs, "%ld cases compared%s, %d unexpected and %d known deviation groups, "
             "%d known deviations not seen", gs->checked, parts, fails, xfails, stale);
    cJSON *d = cJSON_CreateObject();
    add_identity(d, ri);
    cJSON_AddNumberToObject(d, "cases_compared", (double)gs->checked);
    cJSON_AddNumberToObject(d, "cases_not_compared", (double)gs->skipped);
    if (gs->subchecks)
        cJSON_AddNumberToObject(d, "sub_checks", (double)gs->subchecks);
    cJSON_AddNumberToObject(d, "probe_wall_s", ri->probe_wall_s);
    if (ri->known_list != ri->runner && strcmp(ri->known_list, ri->runner) != 0)
        cJSON_AddStringToObject(d, "known_list", ri->known_list);
    if (proposals)
        cJSON_AddStringToObject(d, "action", "unexpected deviations: proposed known lines were "
                                "written; review them, then " BG_PROPOSED_ADOPT
                                " (docs/nan_semantics.md#runner-versions)");
    if (kd->inferred && (inferred || differs)) {
        /* one cause per runner version (bg-report groups the tests by it) */
        char bracket[200], cause[700], act[700];
        nan_known_bracket_text(kd, ri->version, bracket, sizeof bracket);
        snprintf(cause, sizeof cause, "%s %s: its verdicts are inferred from that bracket",
                 ri->known_list, bracket);
        snprintf(act, sizeof act, "measure and adopt it: this run's lines are proposed in "
                 "proposed-known/nan_semantics/%s.tsv; review them, then " BG_PROPOSED_ADOPT
                 " (docs/nan_semantics.md#runner-versions)", ri->known_list);
        cJSON *inf = cJSON_AddObjectToObject(d, "inferred");
        cJSON_AddStringToObject(inf, "cause", cause);
        cJSON_AddStringToObject(inf, "bracket", bracket);
        cJSON_AddNumberToObject(inf, "xfail_groups", inferred);
        cJSON_AddNumberToObject(inf, "differs_from_bracket", differs);
        cJSON_AddStringToObject(inf, "action", act);
        printf("cause:       %s (%d inferred xfail, %d differ); %s\n", cause, inferred, differs, act);
    } else if (!kd->inferred && fails && *kd->measured && (!*kd->lo || !*kd->hi)) {
        char t[700];
        snprintf(t, sizeof t, "%s %s is outside every measured bracket (measured: %s): no verdict "
                 "can be inferred", ri->known_list, ri->version, kd->measured);
        gs->notes = gs->notes ? gs->notes : cJSON_CreateArray();
        cJSON_AddItemToArray(gs->notes, cJSON_CreateString(t));
    }
    if (gs->notes) {
        cJSON_AddItemToObject(d, "notes", gs->notes);
        gs->notes = NULL;
    }
    cJSON_AddItemToObject(d, "matrix", matrix(ri, cell));
    bg_verdict sv = fails ? BG_FAIL : stale ? BG_XPASS : xfails ? BG_XFAIL : BG_PASS;
    if (bg_check_emit(c, ri->test, sv,
                      cJSON_CreateString("0 unexpected deviation groups, every known one seen"),
                      cJSON_CreateString(obs), d) != BG_OK)
        st = BG_E_IO;
    write_fragment(ri, gs, v, kd);
    free(v);
    return st;
}
