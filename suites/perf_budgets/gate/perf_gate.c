/* perf_gate.c — see perf_gate.h. */
#include "perf_gate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_stats.h"

const char *perf_outcome_name(perf_outcome o)
{
    static const char *const names[] = {"pass", "improved", "inconclusive", "fail", "skip"};
    return (unsigned)o < 5 ? names[o] : "?";
}

/* FNV-1a of the name: the bootstrap seed, so each benchmark has its own
 * stream and a rerun of the same data gives the same interval. */
static uint64_t name_seed(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
    return h;
}

/* Relative standard deviations between and within processes, pooled over
 * the two sides (mean of the variances that can be estimated). */
static void split(const perf_series *a, const perf_series *b, double med, perf_result *r)
{
    double vb[2], vw[2], sb = 0, sw = 0;
    int nb = 0, nw = 0;
    bg_grouped ga = perf_series_grouped(a), gb = perf_series_grouped(b);
    bg_variance_split(&ga, &vb[0], &vw[0]);
    bg_variance_split(&gb, &vb[1], &vw[1]);
    for (int i = 0; i < 2; i++) {
        if (!isnan(vb[i]))
            sb += vb[i], nb++;
        if (!isnan(vw[i]))
            sw += vw[i], nw++;
    }
    r->between = nb ? sqrt(sb / nb) / med : NAN;
    r->within = nw ? sqrt(sw / nw) / med : NAN;
    double setup = fmax(a->setup_s, b->setup_s), rep = fmax(a->rep_s, b->rep_s);
    r->reps_advice = setup > 0 && rep > 0 && nb && nw
                         ? bg_reps_per_process(sb / nb, sw / nw, setup, rep, PERF_MAX_REPS)
                         : 0;
}

/* The process medians of s into *out (allocated), their median and MAD. */
static bg_status summarise(const perf_series *s, double **out, double *med, double *mad)
{
    bg_grouped g = perf_series_grouped(s);
    *out = malloc((g.ng ? g.ng : 1) * sizeof **out);
    if (!*out)
        return BG_E_NOMEM;
    bg_status st = bg_group_medians(&g, *out);
    *med = bg_median(*out, g.ng);
    *mad = bg_mad(*out, g.ng);
    return st;
}

static bg_status measure(const perf_series *a, const perf_series *b, perf_result *r)
{
    int lower_better = r->budget.lower_better;
    r->n_base = a->n;
    r->n_head = b->n;
    r->np_base = a->ng;
    r->np_head = b->ng;
    r->agg_base = a->agg_procs;
    r->agg_head = b->agg_procs;
    bg_status st = summarise(a, &r->proc_base, &r->med_base, &r->mad_base);
    if (st == BG_OK)
        st = summarise(b, &r->proc_head, &r->med_head, &r->mad_head);
    if (st != BG_OK)
        return st;
    split(a, b, r->med_base, r);
    double lo, hi;
    bg_grouped ga = perf_series_grouped(a), gb = perf_series_grouped(b);
    /* time: head/base; rate: base/head = 1 / (head/base) */
    st = bg_bootstrap2_median_ratio(&ga, &gb, (unsigned)r->budget.resamples, r->budget.level,
                                    name_seed(r->name), &lo, &hi);
    if (st != BG_OK)
        return st;
    r->ratio = r->med_head / r->med_base;
    if (!lower_better) {
        r->ratio = 1.0 / r->ratio;
        double t = lo;
        lo = 1.0 / hi;
        hi = 1.0 / t;
    }
    r->lo = lo;
    r->hi = hi;
    return bg_mann_whitney(r->proc_base, r->np_base, r->proc_head, r->np_head, &r->u, &r->p);
}

static perf_outcome decide(const perf_result *r)
{
    const perf_budget *b = &r->budget;
    if (r->np_base < (size_t)b->min_repetitions || r->np_head < (size_t)b->min_repetitions)
        return PERF_INCONCLUSIVE;
    int sig = r->q < b->alpha;
    if (r->lo > 1.0 + b->band)
        return sig ? PERF_FAIL : PERF_INCONCLUSIVE;
    if (r->hi > 1.0 + b->band)
        return PERF_INCONCLUSIVE;
    if (r->hi < 1.0 - b->band && sig)
        return PERF_IMPROVED;
    return PERF_PASS;
}

/* Writes "<side>: missing from N of M processes ..." into why when s has rows
 * in fewer processes of its side than it should (perf_series_want); 0 when
 * it is in all of them (or the count is unknown). */
static int missing(const perf_set *set, const perf_series *s, const char *side, char *why, size_t n)
{
    size_t want = s ? perf_series_want(set, s) : 0;
    if (!s || s->docs >= want)
        return 0;
    snprintf(why, n, "%s: missing from %zu of %zu processes (a benchmark is judged only when "
             "every process of a side ran it)", side, want - s->docs, want);
    return 1;
}

/* Decides a benchmark that cannot be measured on both sides (base a of set
 * base, head h of set head, either may be NULL); 0 when it can be measured. */
static int unmeasured(const perf_set *base, const perf_series *a, const perf_set *head,
                      const perf_series *h, const cJSON *budgets, perf_result *r)
{
    const char *retired;
    r->one_side = !h ? PERF_BASE_ONLY : !a ? PERF_HEAD_ONLY : 0;
    r->n_base = a ? a->n : 0;
    r->n_head = h ? h->n : 0;
    r->p = r->q = r->ratio = r->lo = r->hi = NAN;
    if ((h && h->error) || (a && a->error)) {
        r->outcome = PERF_FAIL;
        snprintf(r->why, sizeof r->why, "%s: %s", h && h->error ? "head" : "base",
                 h && h->error ? h->error : a->error);
    } else if ((h && h->skipped) || (a && a->skipped)) {
        r->outcome = PERF_SKIP;
        snprintf(r->why, sizeof r->why, "skipped by the benchmark in the %s: %s",
                 h && h->skipped ? "head" : "base", h && h->skipped ? h->skipped : a->skipped);
    } else if (!a) {
        r->outcome = PERF_SKIP;
        snprintf(r->why, sizeof r->why, "new, no reference: in the head, not in the base");
    } else if (!h && (retired = perf_budgets_retired(budgets, a->name)) != NULL) {
        r->outcome = PERF_SKIP;
        snprintf(r->why, sizeof r->why, "retired (budgets.json): %s", retired);
    } else if (!h) {
        r->outcome = PERF_FAIL;
        snprintf(r->why, sizeof r->why,
                 "vanished: in the base, not in the head (deleted, renamed or filtered away; "
                 "retire it in budgets.json \"retired\" with a reason if that is intended)");
    } else if (missing(head, h, "head", r->why, sizeof r->why) ||
               missing(base, a, "base", r->why, sizeof r->why)) {
        r->outcome = PERF_FAIL;
    } else if (a->n == 0 || h->n == 0) {
        r->outcome = PERF_SKIP;
        snprintf(r->why, sizeof r->why, "no samples");
    } else {
        return 0;
    }
    return 1;
}

int perf_result_unresolved(const perf_result *r)
{
    return r->outcome == PERF_INCONCLUSIVE && !isnan(r->lo) && r->lo > 1.0 + r->budget.band;
}

bg_status perf_gate_decide(perf_result *r, size_t n)
{
    double *p = calloc(n ? n : 1, sizeof *p);
    size_t *idx = calloc(n ? n : 1, sizeof *idx), m = 0;
    if (!p || !idx) {
        free(p);
        free(idx);
        return BG_E_NOMEM;
    }
    for (size_t i = 0; i < n; i++)
        if (r[i].measured) {
            p[m] = r[i].p;
            idx[m++] = i;
        }
    bg_status st = bg_benjamini_hochberg(p, m, p);
    for (size_t j = 0; j < m && st == BG_OK; j++) {
        perf_result *x = &r[idx[j]];
        x->q = p[j];
        x->outcome = decide(x);
        /* A ratio or interval that is no finite number (medians near double's
         * limit overflow it; NaN compares false, so decide() would call it a
         * pass): nothing can be judged, and a gate that cannot judge fails. */
        if (!isfinite(x->ratio) || (!isnan(x->p) && (!isfinite(x->lo) || !isfinite(x->hi)))) {
            x->outcome = PERF_FAIL;
            snprintf(x->why, sizeof x->why,
                     "the ratio or its interval is not a finite number (medians %g -> %g %s): "
                     "an input value out of any sensible range cannot be judged",
                     x->med_base, x->med_head, x->budget.metric);
        }
    }
    free(p);
    free(idx);
    return st;
}

bg_status perf_gate_compare(const perf_set *base, const perf_set *head, const cJSON *budgets,
                            perf_result **out, size_t *n_out)
{
    *out = NULL;
    *n_out = 0;
    size_t total = head->n;
    for (size_t i = 0; i < base->n; i++)
        total += perf_set_find(head, base->s[i].name) == NULL;
    perf_result *r = calloc(total ? total : 1, sizeof *r);
    if (!r)
        return BG_E_NOMEM;
    size_t j = 0;
    bg_status st = BG_OK;
    for (size_t i = 0; i < total && st == BG_OK; i++) {
        const perf_series *h = i < head->n ? &head->s[i] : NULL, *a;
        if (h) {
            a = perf_set_find(base, h->name);
        } else { /* the next base-only series */
            while (perf_set_find(head, base->s[j].name))
                j++;
            a = &base->s[j++];
        }
        r[i].name = h ? h->name : a->name;
        perf_budget_for(budgets, r[i].name, &r[i].budget);
        if (unmeasured(base, a, head, h, budgets, &r[i]))
            continue;
        r[i].measured = 1;
        st = measure(a, h, &r[i]);
    }
    if (st == BG_OK)
        st = perf_gate_decide(r, total);
    if (st != BG_OK) {
        perf_results_free(r, total);
        return st;
    }
    *out = r;
    *n_out = total;
    return BG_OK;
}

void perf_results_free(perf_result *r, size_t n)
{
    for (size_t i = 0; r && i < n; i++) {
        free(r[i].proc_base);
        free(r[i].proc_head);
    }
    free(r);
}

void perf_result_sd(const perf_result *r, int between, char *buf, size_t n)
{
    double v = between ? (r->paired ? r->pair_sd : r->between) : r->within;
    if (isnan(v))
        snprintf(buf, n, "%s", !between ? (r->agg_base || r->agg_head
                                               ? "n/a (median aggregate only)"
                                               : "n/a (one sample a process)")
                               : r->paired ? "n/a (one pair)" : "n/a (one process a side)");
    else
        snprintf(buf, n, "%.2f%%", 100 * v);
}

void perf_result_line(const perf_result *r, char *buf, size_t n)
{
    if (!r->measured && r->why[0]) {
        snprintf(buf, n, "%s: %s: %s", r->name, perf_outcome_name(r->outcome), r->why);
        return;
    }
    if (isnan(r->p)) {
        snprintf(buf, n, "%s: %s ratio %.5f band +-%.2f%% (deterministic, %s per iteration %.6g -> %.6g)",
                 r->name, perf_outcome_name(r->outcome), r->ratio, 100 * r->budget.band,
                 r->budget.metric, r->med_base, r->med_head);
        return;
    }
    char sb[40], sw[40], units[64];
    perf_result_sd(r, 1, sb, sizeof sb);
    perf_result_sd(r, 0, sw, sizeof sw);
    if (r->paired)
        snprintf(units, sizeof units, "pairs %zu", r->np_base);
    else
        snprintf(units, sizeof units, "processes %zu/%zu", r->np_base, r->np_head);
    int k = snprintf(buf, n,
                     "%s: %s ratio %.4f [%.4f, %.4f] band +-%.1f%% p=%.2g q=%.2g alpha=%.3g (%s, samples "
                     "%zu/%zu, median %.6g -> %.6g %s, sd %s %s%s within %s)",
                     r->name, perf_outcome_name(r->outcome), r->ratio, r->lo, r->hi, 100 * r->budget.band,
                     r->p, r->q, r->budget.alpha, units, r->n_base, r->n_head, r->med_base, r->med_head,
                     r->budget.metric, r->paired ? "of the pair log ratios" : "between", sb,
                     r->paired ? "," : "", sw);
    if (r->why[0] && k >= 0 && (size_t)k < n)
        snprintf(buf + k, n - (size_t)k, ": %s", r->why);
}
