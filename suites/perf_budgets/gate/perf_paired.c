/* perf_paired.c — see perf_paired.h. */
#include "perf_paired.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_stats.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Null distribution of T+ for n untied ranks 1..n: f[t] = P(T+ = t),
 * t = 0..n(n+1)/2 (f holds M + 1 doubles). */
static void signed_rank_null(size_t n, double *f)
{
    size_t m = n * (n + 1) / 2;
    memset(f, 0, (m + 1) * sizeof *f);
    f[0] = 1;
    for (size_t k = 1; k <= n; k++) /* rank k positive or not, each 1/2 */
        for (size_t t = k * (k + 1) / 2 + 1; t-- > 0;)
            f[t] = 0.5 * (f[t] + (t >= k ? f[t - k] : 0));
}

/* Two-sided signed-rank p of d (zeros dropped), ranks of |d| with ties
 * averaged. */
static bg_status signed_rank_p(const double *d, size_t n, double *p)
{
    double *a = malloc((n ? n : 1) * sizeof *a);
    size_t *ix = malloc((n ? n : 1) * sizeof *ix);
    if (!a || !ix) {
        free(a), free(ix);
        return BG_E_NOMEM;
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (d[i] != 0)
            a[m++] = fabs(d[i]), ix[m - 1] = i;
    /* sort |d| with their indices (insertion: n is small) */
    for (size_t i = 1; i < m; i++)
        for (size_t j = i; j > 0 && a[j - 1] > a[j]; j--) {
            double t = a[j]; a[j] = a[j - 1]; a[j - 1] = t;
            size_t u = ix[j]; ix[j] = ix[j - 1]; ix[j - 1] = u;
        }
    double tplus = 0, tie = 0;
    int ties = 0;
    for (size_t i = 0; i < m;) {
        size_t j = i;
        while (j + 1 < m && a[j + 1] == a[i])
            j++;
        double rank = 0.5 * (double)(i + j + 2), g = (double)(j - i + 1);
        ties |= j > i;
        tie += g * g * g - g;
        for (size_t k = i; k <= j; k++)
            if (d[ix[k]] > 0)
                tplus += rank;
        i = j + 1;
    }
    free(a), free(ix);
    if (m == 0) {
        *p = 1;
        return BG_OK;
    }
    double M = (double)m * (double)(m + 1) / 2;
    if (!ties && m <= 60) {
        double *f = malloc(((size_t)M + 1) * sizeof *f);
        if (!f)
            return BG_E_NOMEM;
        signed_rank_null(m, f);
        double lo = 0, t = tplus < M - tplus ? tplus : M - tplus;
        for (size_t k = 0; (double)k <= t; k++)
            lo += f[k];
        free(f);
        *p = fmin(1.0, 2 * lo);
        return BG_OK;
    }
    double mu = M / 2, var = (double)m * (m + 1) * (2 * m + 1) / 24 - tie / 48;
    double z = var > 0 ? (fabs(tplus - mu) - 0.5) / sqrt(var) : 0;
    *p = z > 0 ? erfc(z / sqrt(2)) : 1;
    return BG_OK;
}

bg_status perf_paired_stats(const double *d, size_t n, double level, double *est, double *lo,
                            double *hi, double *p)
{
    if (n == 0 || !(level > 0 && level < 1))
        return BG_E_USAGE;
    size_t M = n * (n + 1) / 2;
    double *w = malloc(M * sizeof *w), *f = malloc((M + 1) * sizeof *f);
    if (!w || !f) {
        free(w), free(f);
        return BG_E_NOMEM;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i; j < n; j++)
            w[k++] = 0.5 * (d[i] + d[j]);
    qsort(w, M, sizeof *w, cmp_double);
    *est = M % 2 ? w[M / 2] : 0.5 * (w[M / 2 - 1] + w[M / 2]);
    /* C: the largest with P(T+ <= C - 1) <= (1 - level) / 2, at least 1 */
    signed_rank_null(n, f);
    size_t c = 0;
    double cum = 0;
    while (c < M && cum + f[c] <= (1 - level) / 2)
        cum += f[c++];
    if (c < 1)
        c = 1;
    *lo = w[c - 1];
    *hi = w[M - c];
    free(w), free(f);
    return signed_rank_p(d, n, p);
}

/* The sample standard deviation of d[0..n-1] (NaN for n < 2). */
static double sd_of(const double *d, size_t n)
{
    if (n < 2)
        return NAN;
    double mean = 0, ss = 0;
    for (size_t k = 0; k < n; k++)
        mean += d[k] / (double)n;
    for (size_t k = 0; k < n; k++)
        ss += (d[k] - mean) * (d[k] - mean);
    return sqrt(ss / (double)(n - 1));
}

/* After perf_gate_decide: a paired result with too few pairs to ever reach
 * p < alpha is inconclusive, saying so in why. */
static void too_few_pairs(perf_result *x)
{
    size_t need = perf_paired_pairs_min(x->budget.alpha);
    if (!x->paired || x->np_base >= need)
        return;
    x->outcome = PERF_INCONCLUSIVE;
    snprintf(x->why, sizeof x->why,
             "%zu pairs: the exact signed-rank test needs at least %zu to reach p < %g (its smallest p "
             "with n pairs is 2^(1-n): %.3g here), so no verdict but inconclusive; run more rounds",
             x->np_base, need, x->budget.alpha, ldexp(1.0, 1 - (int)x->np_base));
}

bg_status perf_paired_rejudge(perf_result *r, size_t n, size_t *unpaired)
{
    *unpaired = 0;
    for (size_t i = 0; i < n; i++) {
        perf_result *x = &r[i];
        if (!x->measured)
            continue;
        size_t np = x->np_base;
        if (np == 0 || np != x->np_head || !x->proc_base || !x->proc_head) {
            (*unpaired)++;
            continue;
        }
        double *d = malloc(np * sizeof *d), est, lo, hi, p;
        if (!d)
            return BG_E_NOMEM;
        int lower_better = x->budget.lower_better;
        for (size_t k = 0; k < np; k++)
            d[k] = (lower_better ? 1 : -1) * log(x->proc_head[k] / x->proc_base[k]);
        bg_status st = perf_paired_stats(d, np, x->budget.level, &est, &lo, &hi, &p);
        x->pair_sd = sd_of(d, np);
        free(d);
        if (st != BG_OK)
            return st;
        x->ratio = exp(est);
        x->lo = exp(lo);
        x->hi = exp(hi);
        x->p = p;
        x->paired = 1;
        if (x->budget.paired_band > 0) /* the paired judge's own band (perf_budget.h) */
            x->budget.band = x->budget.paired_band;
    }
    bg_status st = perf_gate_decide(r, n);
    for (size_t i = 0; st == BG_OK && i < n; i++)
        if (r[i].measured)
            too_few_pairs(&r[i]);
    return st;
}

size_t perf_paired_pairs_min(double alpha)
{
    for (int k = 1; k <= 60; k++)
        if (ldexp(1.0, 1 - k) < alpha)
            return (size_t)k;
    return 0;
}

size_t perf_paired_pairs_for(double alpha, size_t m_tests)
{
    for (size_t k = 2; k <= 60; k++)
        if ((double)m_tests * 4.0 / ldexp(1.0, (int)k) < alpha)
            return k;
    return 0;
}

int perf_paired_seq_open(const perf_result *x)
{
    return x->measured && x->paired && x->outcome == PERF_INCONCLUSIVE && x->budget.seq_looks > 0 &&
           x->np_base < (size_t)x->budget.seq_max_pairs;
}

static int in_names(const char *name, char *const *seq, size_t nseq)
{
    for (size_t i = 0; i < nseq; i++)
        if (!strcmp(seq[i], name))
            return 1;
    return 0;
}

bg_status perf_paired_rejudge_seq(perf_result *r, size_t n, char *const *seq, size_t nseq, size_t *unpaired)
{
    for (size_t i = 0; i < n; i++) {
        perf_budget *b = &r[i].budget;
        if (r[i].measured && b->seq_looks > 0 && in_names(r[i].name, seq, nseq)) {
            b->alpha /= b->seq_looks;
            b->level = 1 - (1 - b->level) / b->seq_looks;
        }
    }
    return perf_paired_rejudge(r, n, unpaired);
}

int perf_paired_seq_looks(const perf_result *r, size_t n, char *const *seq, size_t nseq)
{
    int m = 0;
    for (size_t i = 0; i < n; i++)
        if (in_names(r[i].name, seq, nseq) && r[i].budget.seq_looks > m)
            m = r[i].budget.seq_looks;
    return m;
}

const char *perf_paired_seq_stop(const perf_result *r, size_t n, char *const *seq, size_t nseq)
{
    for (size_t i = 0; i < n; i++)
        if (in_names(r[i].name, seq, nseq) && r[i].outcome == PERF_INCONCLUSIVE &&
            r[i].np_base >= (size_t)r[i].budget.seq_max_pairs)
            return "seq_max_pairs reached";
    return "all looks done";
}

size_t perf_paired_seq_add(const perf_result *r, size_t n, int look)
{
    size_t add = 0;
    for (size_t i = 0; i < n; i++) {
        const perf_result *x = &r[i];
        if (!perf_paired_seq_open(x) || look > x->budget.seq_looks)
            continue;
        size_t left = (size_t)x->budget.seq_max_pairs - x->np_base, looks_left = (size_t)(x->budget.seq_looks - look + 1);
        size_t k = (left + looks_left - 1) / looks_left;
        if (k > add)
            add = k;
    }
    return add;
}

void perf_paired_seq_unknown(perf_result *r, size_t n, char *const *seq, size_t nseq, int looks,
                             const char *stop)
{
    for (size_t i = 0; i < n; i++) {
        perf_result *x = &r[i];
        if (!x->measured || !x->paired || x->outcome != PERF_INCONCLUSIVE || !in_names(x->name, seq, nseq))
            continue;
        /* inconclusive means hi > 1 + band (perf_gate.h): wholly above it but not significant, or
           straddling it, where the interval must shrink to clear 1 + band (log scale) */
        double b = x->budget.band, e = log(x->ratio), h = 0.5 * (log(x->hi) - log(x->lo));
        double need = fabs(e - log(1 + b));
        char pairs[64] = "more pairs than any cap", what[160];
        if (need > 0 && h > 0 && isfinite(h))
            snprintf(pairs, sizeof pairs, "about %.0f pairs at this spread",
                     ceil((double)x->np_base * (h / need) * (h / need)));
        if (x->lo > 1 + b)
            snprintf(what, sizeof what, "wholly above 1 + band (%.4f) but q = %.2g is not below alpha %.3g", 1 + b,
                     x->q, x->budget.alpha);
        else
            snprintf(what, sizeof what, "straddles 1 + band (%.4f); deciding needs it within +-%.2f %% (%s)", 1 + b,
                     100 * need, pairs);
        snprintf(x->why, sizeof x->why,
                 "UNKNOWN after %zu pairs (%d sequential look(s), %s): interval [%.4f, %.4f] (+-%.2f %% around "
                 "%.4f) %s",
                 x->np_base, looks, stop, x->lo, x->hi, 100 * h, x->ratio, what);
    }
}
