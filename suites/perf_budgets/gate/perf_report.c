/* perf_report.c — see perf_report.h. */
#define _POSIX_C_SOURCE 200809L
#include "perf_report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_check.h"
#include "buildgate/bg_fragment.h"
#include "perf_cgfile.h"
#include "perf_paired.h"

static char decide_prefix[3072] = "bg-perf ab --base-exe <base perf-bench> --head-exe <head perf-bench>";

void perf_report_set_decide(const char *cmd_prefix)
{
    snprintf(decide_prefix, sizeof decide_prefix, "%s",
             cmd_prefix ? cmd_prefix : "bg-perf ab --base-exe <base perf-bench> --head-exe <head perf-bench>");
}

/* The command that decides r: more processes of just this benchmark. */
static void decide_cmd(const perf_result *r, char *buf, size_t n)
{
    size_t p = r->np_base > r->np_head ? r->np_base : r->np_head, rounds = 2 * (p ? p : 5);
    size_t need = r->paired ? perf_paired_pairs_for(r->budget.alpha, 1) : 0; /* the pairs to reach alpha */
    snprintf(buf, n, "%s --filter '^%s$' --rounds %zu", decide_prefix, r->name, rounds > need ? rounds : need);
}

/* The one-line notice of an unresolved slowdown (perf_report.h). */
static void unresolved_line(const perf_result *r, int reruns, char *buf, size_t n)
{
    char cmd[3400], units[96];
    decide_cmd(r, cmd, sizeof cmd);
    if (r->paired) /* the floor of the signed-rank test (perf_paired.h) */
        snprintf(units, sizeof units, "pairs %zu, min %zu", r->np_base, perf_paired_pairs_min(r->budget.alpha));
    else
        snprintf(units, sizeof units, "processes %zu/%zu, min %d", r->np_base, r->np_head,
                 r->budget.min_repetitions);
    snprintf(buf, n,
             "UNRESOLVED SLOWDOWN: %s ratio %.4f [%.4f, %.4f] is wholly above 1 + band (%.4f) but not "
             "confirmed (q=%.2g, alpha %.3g, %s) after %d rerun(s); decide it: %s",
             r->name, r->ratio, r->lo, r->hi, 1 + r->budget.band, r->q, r->budget.alpha, units, reruns, cmd);
}

static bg_verdict verdict_of(perf_outcome o)
{
    switch (o) {
    case PERF_FAIL: return BG_FAIL;
    case PERF_INCONCLUSIVE: return BG_INCONCLUSIVE;
    case PERF_SKIP: return BG_SKIP;
    default: return BG_PASS;
    }
}

static cJSON *details_of(const perf_result *r, int reruns)
{
    cJSON *d = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "metric", r->budget.metric);
    cJSON_AddBoolToObject(d, "higher_is_better", !r->budget.lower_better); /* the judged direction */
    if (!r->measured && r->why[0]) { /* one-sided, skipped or erroring: perf_gate.h */
        static const char *const sides[] = {"both", "base", "head"};
        cJSON_AddStringToObject(d, "reason", r->why);
        cJSON_AddStringToObject(d, "present_in", sides[r->one_side]);
        cJSON_AddNumberToObject(d, "n_base", (double)r->n_base);
        cJSON_AddNumberToObject(d, "n_head", (double)r->n_head);
        return d;
    }
    cJSON_AddNumberToObject(d, "median_base", r->med_base);
    cJSON_AddNumberToObject(d, "median_head", r->med_head);
    cJSON_AddNumberToObject(d, "mad_base", r->mad_base);
    cJSON_AddNumberToObject(d, "mad_head", r->mad_head);
    cJSON_AddNumberToObject(d, "n_base", (double)r->n_base);
    cJSON_AddNumberToObject(d, "n_head", (double)r->n_head);
    if (r->proc_base && r->proc_head) { /* the unit of replication: perf_gate.h */
        cJSON_AddNumberToObject(d, "processes_base", (double)r->np_base);
        cJSON_AddNumberToObject(d, "processes_head", (double)r->np_head);
        cJSON_AddItemToObject(d, "process_medians_base", cJSON_CreateDoubleArray(r->proc_base, (int)r->np_base));
        cJSON_AddItemToObject(d, "process_medians_head", cJSON_CreateDoubleArray(r->proc_head, (int)r->np_head));
        cJSON *v = cJSON_AddObjectToObject(d, "variance");
        cJSON_AddNumberToObject(v, "between_rsd", isnan(r->between) ? -1 : r->between);
        cJSON_AddNumberToObject(v, "within_rsd", isnan(r->within) ? -1 : r->within);
        if (r->reps_advice > 0)
            cJSON_AddNumberToObject(v, "reps_advice", r->reps_advice);
    }
    cJSON_AddNumberToObject(d, "ratio", r->ratio);
    cJSON *ci = cJSON_AddArrayToObject(d, "interval");
    cJSON_AddItemToArray(ci, cJSON_CreateNumber(r->lo));
    cJSON_AddItemToArray(ci, cJSON_CreateNumber(r->hi));
    cJSON_AddNumberToObject(d, "level", r->budget.level);
    cJSON_AddNumberToObject(d, "band", r->budget.band);
    cJSON_AddNumberToObject(d, "p", r->p);
    cJSON_AddNumberToObject(d, "q", r->q);
    cJSON_AddNumberToObject(d, "alpha", r->budget.alpha);
    cJSON_AddNumberToObject(d, "reruns", reruns);
    if (r->paired) { /* perf_paired.h */
        cJSON_AddNumberToObject(d, "pairs", (double)r->np_base);
        if (!isnan(r->pair_sd))
            cJSON_AddNumberToObject(d, "pair_log_ratio_sd", r->pair_sd);
    }
    if (r->why[0])
        cJSON_AddStringToObject(d, "reason", r->why);
    if (r->outcome == PERF_IMPROVED)
        cJSON_AddStringToObject(d, "note", "improved: the whole interval is below 1 - band");
    if (perf_result_unresolved(r)) {
        char cmd[3400];
        decide_cmd(r, cmd, sizeof cmd);
        cJSON_AddTrueToObject(d, "unresolved_slowdown");
        cJSON_AddStringToObject(d, "decide", cmd);
    }
    for (const cJSON *e = r->extra ? r->extra->child : NULL; e; e = e->next)
        cJSON_AddItemToObject(d, e->string, cJSON_Duplicate(e, 1));
    return d;
}

/* A 41-column chart of the interval on [0.9, 1.1] (0.5% per column, values
 * outside clamped to the edges): '|' at 1, '+' at 1+band, '=' over the
 * interval, '*' at the ratio. */
static void chart(const perf_result *r, char *buf)
{
    const int w = 41;
    memset(buf, '.', (size_t)w);
    buf[w] = 0;
#define COL(x) ((int)lround((fmin(fmax((x), 0.9), 1.1) - 0.9) / 0.2 * (w - 1)))
    int c1 = COL(1.0), cb = COL(1.0 + r->budget.band);
    for (int c = COL(r->lo); c <= COL(r->hi); c++)
        if (c >= 0 && c < w)
            buf[c] = '=';
    if (cb >= 0 && cb < w)
        buf[cb] = '+';
    buf[c1] = '|';
    int cr = COL(r->ratio);
    if (cr >= 0 && cr < w)
        buf[cr] = '*';
#undef COL
}

static void write_md(const char *mode, const perf_result *r, size_t n, int reruns)
{
    const char *test = bg_test_name(NULL);
    FILE *f = bg_fragment_open("perf_budgets", test ? test : mode);
    if (!f)
        return;
    for (size_t i = 0; i < n; i++)
        if (perf_result_unresolved(&r[i])) {
            char u[4096];
            unresolved_line(&r[i], reruns, u, sizeof u);
            fprintf(f, "**%s**\n\n", u);
        }
    fprintf(f, "#### perf %s%s%s\n\n| benchmark | base | head | ratio [interval] | band | p (q) | "
               "processes | sd between / within | verdict |\n"
               "|---|---|---|---|---|---|---|---|---|\n", mode, test ? ": " : "", test ? test : "");
    for (size_t i = 0; i < n; i++) {
        char pq[64] = "— (deterministic)", pr[64] = "—", sd[100] = "—", sb[40], sw[40];
        if (!r[i].measured && r[i].why[0]) {
            fprintf(f, "| `%s` | — | — | — | ±%.1f%% | — | — | — | %s: %s |\n", r[i].name,
                    100 * r[i].budget.band, perf_outcome_name(r[i].outcome), r[i].why);
            continue;
        }
        if (!isnan(r[i].p))
            snprintf(pq, sizeof pq, "%.2g (%.2g)", r[i].p, r[i].q);
        if (r[i].proc_base) {
            snprintf(pr, sizeof pr, "%zu / %zu", r[i].np_base, r[i].np_head);
            perf_result_sd(&r[i], 1, sb, sizeof sb);
            perf_result_sd(&r[i], 0, sw, sizeof sw);
            snprintf(sd, sizeof sd, "%s / %s", sb, sw);
        }
        if (r[i].paired) /* sd between: of the pair log ratios (perf_gate.h) */
            snprintf(pr, sizeof pr, "%zu pairs", r[i].np_base);
        fprintf(f, "| `%s`%s%s | %.4g | %.4g | %.4f [%.4f, %.4f] | ±%.1f%% | %s | %s | %s | %s%s%s |\n", r[i].name,
                r[i].check_mode ? " " : "", r[i].check_mode ? r[i].budget.metric : "", r[i].med_base, r[i].med_head, r[i].ratio, r[i].lo, r[i].hi, 100 * r[i].budget.band, pq, pr,
                sd, perf_outcome_name(r[i].outcome), r[i].why[0] ? ": " : "", r[i].why);
    }
    fprintf(f, "\nprocesses: base / head, the unit the U test and the two-level bootstrap judge "
               "(docs/perf_budgets.md); sd: between and within processes, relative to the median; "
               "for pairs (duet), sd of the per-pair log ratios and within processes.\n");
    fprintf(f, "\nRatios (head/base, >1 slower) on 0.9 … 1.1 (clamped): `|` = 1, `+` = 1 + band, `=` interval, `*` median ratio\n\n```\n");
    for (size_t i = 0; i < n; i++) {
        char c[64];
        if (r[i].outcome == PERF_SKIP || (!r[i].measured && r[i].why[0]))
            continue;
        chart(&r[i], c);
        fprintf(f, "%-44.44s %s %.3f\n", r[i].name, c, r[i].ratio);
    }
    fprintf(f, "```\n");
    fclose(f);
}

/* What the check of r expected. */
static void expected_of(const perf_result *r, char *buf, size_t n)
{
    if (r->measured || !r->why[0])
        snprintf(buf, n, "interval not wholly above %.4f (band +%.1f%%) with q < %.3g",
                 1 + r->budget.band, 100 * r->budget.band, r->budget.alpha);
    else if (r->one_side)
        snprintf(buf, n, "in both the base and the head (or retired in budgets.json with a reason)");
    else
        snprintf(buf, n, "a finite, positive %s on both sides, no error, not skipped", r->budget.metric);
}

/* The fail check of a comparison in which no benchmark is on both sides:
 * nothing was compared, which must not pass (a renamed benchmark would
 * otherwise escape the gate). */
static void no_common(bg_checks *c, const char *mode, const perf_result *r, size_t n)
{
    size_t nb = 0, nh = 0;
    for (size_t i = 0; i < n; i++) {
        if (r[i].one_side == 0)
            return;
        nb += r[i].one_side == PERF_BASE_ONLY;
        nh += r[i].one_side == PERF_HEAD_ONLY;
    }
    char name[128], obs[256];
    snprintf(name, sizeof name, "perf.%s.common", mode);
    snprintf(obs, sizeof obs, "no benchmark in common: %zu in the base only, %zu in the head only: "
             "nothing was compared", nb, nh);
    printf("bg-perf: %s: fail: %s\n", name, obs);
    bg_check_emit_str(c, name, BG_FAIL, "at least one benchmark in both the base and the head", obs, NULL);
}

/* "; top function by self change: ..." after line when r carries a function_diff
 * (perf_cgfile.h): the failure's observed value names the function. */
static void perf_report_top_function(const perf_result *r, char *line, size_t n)
{
    char top[300];
    perf_cg_top_line(cJSON_GetObjectItemCaseSensitive(r->extra, "function_diff"), top, sizeof top);
    size_t k = strlen(line);
    if (top[0] && k + 3 < n)
        snprintf(line + k, n - k, "; %s", top);
}

int perf_report(const char *mode, const perf_result *r, size_t n, int reruns)
{
    bg_checks *c = bg_checks_open("perf_budgets");
    if (!c)
        return BG_EXIT_IO;
    for (size_t i = 0; i < n; i++) /* first: nothing clear passes silently */
        if (perf_result_unresolved(&r[i])) {
            char u[4096];
            unresolved_line(&r[i], reruns, u, sizeof u);
            printf("bg-perf: %s\n", u);
        }
    for (size_t i = 0; i < n; i++) {
        char name[512], line[1400], exp[160];
        snprintf(name, sizeof name, "perf.%s.%s", r[i].check_mode ? r[i].check_mode : mode, r[i].name);
        int k = perf_result_unresolved(&r[i]) ? snprintf(line, sizeof line, "unresolved slowdown: ") : 0;
        perf_result_line(&r[i], line + k, sizeof line - (size_t)k);
        perf_report_top_function(&r[i], line, sizeof line);
        printf("bg-perf: %s\n", line);
        expected_of(&r[i], exp, sizeof exp);
        bg_check_emit_str(c, name, verdict_of(r[i].outcome), exp, line, details_of(&r[i], reruns));
    }
    no_common(c, mode, r, n);
    write_md(mode, r, n, reruns);
    return bg_checks_close(c);
}

int perf_report_skip(const char *name, const char *expected, const char *why)
{
    bg_checks *c = bg_checks_open("perf_budgets");
    if (!c)
        return BG_EXIT_IO;
    printf("bg-perf: skip: %s\n", why);
    bg_check_emit_str(c, name, BG_SKIP, expected, why, NULL);
    return bg_checks_close(c);
}

int perf_report_no_baseline(const char *host_key, const char *path)
{
    char obs[1024];
    snprintf(obs, sizeof obs,
             "no baseline for host %s (%s); record one with: ci/update-baselines --approve \"<reason>\"",
             host_key, path);
    return perf_report_skip("perf.baseline.host", "a baseline for this host", obs);
}

int perf_report_bad_baseline(const char *path, bg_status st)
{
    bg_checks *c = bg_checks_open("perf_budgets");
    if (!c)
        return BG_EXIT_IO;
    char exp[1200];
    snprintf(exp, sizeof exp, "%s: a baseline of this host, schema and metric (docs/perf_budgets.md)",
             path);
    /* the report's next step: the file, not the code (a fresh-user trial got
       "slower than this host's baseline ..." for a truncated baseline) */
    char act[1600];
    snprintf(act, sizeof act, "the stored baseline %s cannot be used: restore it (git checkout -- <that "
             "file>) or record this host's anew with ci/update-baselines --approve \"<why>\"", path);
    return bg_checks_fail_stored(c, "perf.baseline.load", exp, st, act);
}

int perf_calibrate_print(const perf_set *a1, const perf_set *a2, const cJSON *budgets)
{
    perf_result *r = NULL;
    size_t n = 0;
    bg_status st = perf_gate_compare(a1, a2, budgets, &r, &n);
    if (st != BG_OK)
        return bg_exit_code(st);
    cJSON *doc = cJSON_CreateObject(), *bm = cJSON_AddObjectToObject(doc, "benchmarks");
    for (size_t i = 0; i < n; i++) {
        if (!r[i].measured)
            continue;
        double d = 2 * fabs(r[i].ratio - 1.0) + r[i].mad_head / r[i].med_head;
        double band = fmax(0.01, ceil(d * 200.0) / 200.0);
        printf("calibrate: %s: A/A ratio %.4f [%.4f, %.4f] MAD/median %.2f%% -> band %.3f\n",
               r[i].name, r[i].ratio, r[i].lo, r[i].hi, 100 * r[i].mad_head / r[i].med_head, band);
        cJSON *e = cJSON_AddObjectToObject(bm, r[i].name);
        cJSON_AddNumberToObject(e, "band", band);
    }
    char *s = cJSON_Print(doc);
    if (s)
        printf("%s\n", s);
    free(s);
    cJSON_Delete(doc);
    perf_results_free(r, n);
    return 0;
}
