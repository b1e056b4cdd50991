/* perf_variants.c — see perf_variants.h. */
#include "perf_variants.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "perf_budget.h"
#include "perf_paired.h"

static const char *const k_names[PERF_TOST_COUNT] = {"gain", "loss", "no useful gain", "undecided"};

const char *perf_tost_name(perf_tost v)
{
    return (unsigned)v < PERF_TOST_COUNT ? k_names[v] : "undecided";
}

perf_tost perf_tost_decide(double lo, double hi, double margin)
{
    if (!isfinite(lo) || !isfinite(hi) || lo > hi || !(margin > 0))
        return PERF_TOST_UNDECIDED;
    if (lo > 1 + margin)
        return PERF_TOST_GAIN;
    if (hi < 1 - margin)
        return PERF_TOST_LOSS;
    if (lo > 1 - margin && hi < 1 + margin)
        return PERF_TOST_NO_USEFUL_GAIN;
    return PERF_TOST_UNDECIDED;
}

static bg_status bad(const char *why, const char *what)
{
    return bg_fail(BG_E_PARSE, "budgets", "variant_table: %s%s", why, what ? what : "");
}

bg_status perf_variant_cfg_load(const cJSON *budgets, perf_variant_cfg *cfg)
{
    *cfg = (perf_variant_cfg){PERF_VARIANT_MARGIN, PERF_VARIANT_ALPHA, NULL};
    const cJSON *t = budgets ? cJSON_GetObjectItemCaseSensitive(budgets, "variant_table") : NULL;
    if (!t)
        return BG_OK;
    if (!cJSON_IsObject(t))
        return bad("not an object", NULL);
    const cJSON *x = cJSON_GetObjectItemCaseSensitive(t, "margin");
    if (x && !(cJSON_IsNumber(x) && x->valuedouble > 0 && x->valuedouble < 0.5))
        return bad("margin must be a number in (0, 0.5)", NULL);
    if (x)
        cfg->margin = x->valuedouble;
    x = cJSON_GetObjectItemCaseSensitive(t, "alpha");
    if (x && !(cJSON_IsNumber(x) && x->valuedouble > 0 && x->valuedouble <= 0.25))
        return bad("alpha must be a number in (0, 0.25]", NULL);
    if (x)
        cfg->alpha = x->valuedouble;
    x = cJSON_GetObjectItemCaseSensitive(t, "gates");
    if (x && !cJSON_IsObject(x))
        return bad("gates must be an object {\"<version>/<variant>\": [verdicts]}", NULL);
    const cJSON *e, *v;
    cJSON_ArrayForEach(e, x) {
        if (!cJSON_IsArray(e) || cJSON_GetArraySize(e) == 0)
            return bad("gates: a non-empty list of verdicts expected for ", e->string);
        cJSON_ArrayForEach(v, e) {
            int known = 0;
            for (int k = 0; k < PERF_TOST_COUNT && cJSON_IsString(v); k++)
                known |= !strcmp(v->valuestring, k_names[k]);
            if (!known)
                return bg_fail(BG_E_PARSE, "budgets",
                               "variant_table: gates: %s: '%s' is no verdict (gain, loss, no useful gain, "
                               "undecided)", e->string, cJSON_IsString(v) ? v->valuestring : "?");
        }
    }
    cfg->gates = x;
    return BG_OK;
}

int perf_variant_gated(const perf_variant_cfg *cfg, const char *row, perf_tost v, const char **key)
{
    const cJSON *best = NULL, *e, *s;
    size_t best_len = 0;
    cJSON_ArrayForEach(e, cfg->gates) {
        size_t k = strlen(e->string);
        if (perf_name_match(e->string, row) == (long)strlen(row) && (!best || k > best_len))
            best = e, best_len = k;
    }
    if (key)
        *key = best ? best->string : NULL;
    cJSON_ArrayForEach(s, best) if (cJSON_IsString(s) && !strcmp(s->valuestring, perf_tost_name(v))) return 1;
    return 0;
}

bg_status perf_variant_judge(const double *e, size_t n, const perf_variant_cfg *cfg,
                             perf_variant_judgement *out)
{
    *out = (perf_variant_judgement){.pairs = n, .level = 1 - 2 * cfg->alpha, .ratio = NAN, .lo = NAN,
                                    .hi = NAN, .p = NAN, .verdict = PERF_TOST_UNDECIDED};
    /* one-sided at alpha per bound: 2^-n <= alpha, the two-sided minimum at 2 alpha */
    out->min_pairs = perf_paired_pairs_min(2 * cfg->alpha);
    if (n == 0) {
        snprintf(out->why, sizeof out->why, "no pairs measured");
        return BG_OK;
    }
    double est, lo, hi;
    bg_status st = perf_paired_stats(e, n, out->level, &est, &lo, &hi, &out->p);
    if (st != BG_OK)
        return st;
    out->ratio = exp(est), out->lo = exp(lo), out->hi = exp(hi);
    if (n < out->min_pairs) {
        snprintf(out->why, sizeof out->why,
                 "%zu pairs: an interval at %.0f %% needs at least %zu (2^-n <= alpha %g per side)", n,
                 100 * out->level, out->min_pairs, cfg->alpha);
        return BG_OK;
    }
    out->verdict = perf_tost_decide(out->lo, out->hi, cfg->margin);
    if (out->verdict == PERF_TOST_UNDECIDED && (!isfinite(out->lo) || !isfinite(out->hi)))
        snprintf(out->why, sizeof out->why, "the ratio or its interval is no finite number");
    else if (out->verdict == PERF_TOST_UNDECIDED)
        snprintf(out->why, sizeof out->why,
                 "the interval reaches past a margin of +-%.1f %%: neither a gain, a loss nor within "
                 "the margin; more pairs would decide it",
                 100 * cfg->margin);
    return BG_OK;
}
