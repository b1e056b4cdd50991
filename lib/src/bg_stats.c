/* bg_stats.c — see bg_stats.h for the definitions and sources. */
#include "buildgate/bg_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Median of x, sorting x in place. */
static double median_inplace(double *x, size_t n)
{
    if (n == 0)
        return NAN;
    qsort(x, n, sizeof *x, cmp_double);
    return (n % 2) ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2.0;
}

double bg_median(const double *x, size_t n)
{
    if (n == 0)
        return NAN;
    double *t = malloc(n * sizeof *t);
    if (!t)
        return NAN;
    memcpy(t, x, n * sizeof *t);
    double m = median_inplace(t, n);
    free(t);
    return m;
}

double bg_mad(const double *x, size_t n)
{
    if (n == 0)
        return NAN;
    double med = bg_median(x, n);
    double *d = malloc(n * sizeof *d);
    if (!d)
        return NAN;
    for (size_t i = 0; i < n; i++)
        d[i] = fabs(x[i] - med);
    double m = median_inplace(d, n);
    free(d);
    return m;
}

/* Exact null distribution of U for sample sizes m, n (no ties): counts[u] for
 * u = 0..m*n, via N(i, j, u) = N(i-1, j, u-j) + N(i, j-1, u), with rows over i
 * kept for every j.  Returns P(U <= u) and P(U >= u) through *le and *ge. */
static bg_status exact_tails(size_t m, size_t n, double u, double *le, double *ge)
{
    size_t umax = m * n;
    /* cnt[i][j][k]: too big to keep whole; iterate j outer, i inner, keeping
     * a (m+1) x (umax+1) table for the current j. */
    size_t w = umax + 1;
    double *cur = calloc((m + 1) * w, sizeof *cur);
    double *prev = calloc((m + 1) * w, sizeof *prev);
    if (!cur || !prev) {
        free(cur);
        free(prev);
        return BG_E_NOMEM;
    }
    /* j = 0: N(i, 0, 0) = 1 */
    for (size_t i = 0; i <= m; i++)
        prev[i * w] = 1;
    for (size_t j = 1; j <= n; j++) {
        memset(cur, 0, (m + 1) * w * sizeof *cur);
        cur[0] = 1; /* N(0, j, 0) = 1 */
        for (size_t i = 1; i <= m; i++)
            for (size_t k = 0; k <= i * j; k++) {
                double v = prev[i * w + k];              /* N(i, j-1, k): a b is the largest */
                if (k >= j)
                    v += cur[(i - 1) * w + k - j];       /* N(i-1, j, k-j): an a is the largest */
                cur[i * w + k] = v;
            }
        double *t = prev;
        prev = cur;
        cur = t;
    }
    double total = 0, below = 0, above = 0;
    for (size_t k = 0; k <= umax; k++) {
        double c = prev[m * w + k];
        total += c;
        if ((double)k <= u + 1e-9)
            below += c;
        if ((double)k >= u - 1e-9)
            above += c;
    }
    free(cur);
    free(prev);
    *le = below / total;
    *ge = above / total;
    return BG_OK;
}

typedef struct ranked {
    double v;
    int from_a;
} ranked;

static int cmp_ranked(const void *x, const void *y)
{
    return cmp_double(&((const ranked *)x)->v, &((const ranked *)y)->v);
}

bg_status bg_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u_a,
                          double *p)
{
    if (na == 0 || nb == 0)
        return BG_E_USAGE;
    size_t n = na + nb;
    ranked *r = malloc(n * sizeof *r);
    if (!r)
        return BG_E_NOMEM;
    for (size_t i = 0; i < na; i++)
        r[i] = (ranked){a[i], 1};
    for (size_t j = 0; j < nb; j++)
        r[na + j] = (ranked){b[j], 0};
    qsort(r, n, sizeof *r, cmp_ranked);
    /* Mid-ranks; tie term sum(t^3 - t) for the variance. */
    double rank_sum_a = 0, tie_term = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && r[j + 1].v == r[i].v)
            j++;
        double t = (double)(j - i + 1), mid = (double)(i + j) / 2.0 + 1.0;
        tie_term += t * t * t - t;
        for (size_t k = i; k <= j; k++)
            if (r[k].from_a)
                rank_sum_a += mid;
        i = j + 1;
    }
    free(r);
    double u = rank_sum_a - (double)na * (double)(na + 1) / 2.0;
    *u_a = u;
    if (tie_term == 0 && na <= 25 && nb <= 25)
        return bg_mann_whitney_exact_p(na, nb, u, p);
    double m = (double)na * (double)nb / 2.0;
    double var = (double)na * (double)nb / 12.0 * ((double)(n + 1) - tie_term / ((double)n * (double)(n - 1)));
    if (var <= 0) {
        *p = 1.0;
        return BG_OK;
    }
    double z = (fabs(u - m) - 0.5) / sqrt(var);
    if (z < 0)
        z = 0;
    *p = erfc(z / sqrt(2.0));
    return BG_OK;
}

uint64_t bg_rng_next(bg_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* Uniform index in [0, n) (n small: the modulo bias is below 2^-40). */
static size_t rng_index(bg_rng *r, size_t n)
{
    return (size_t)(bg_rng_next(r) % n);
}

static double resample_median(bg_rng *r, const double *x, size_t n, double *tmp)
{
    for (size_t i = 0; i < n; i++)
        tmp[i] = x[rng_index(r, n)];
    return median_inplace(tmp, n);
}

/* Quantile q of sorted v[n] by linear interpolation (Hyndman-Fan type 7). */
static double quantile_sorted(const double *v, size_t n, double q)
{
    double h = (double)(n - 1) * q;
    size_t lo = (size_t)floor(h);
    size_t hi = lo + 1 < n ? lo + 1 : lo;
    return v[lo] + (h - (double)lo) * (v[hi] - v[lo]);
}

typedef struct pidx {
    double p;
    size_t i;
} pidx;

static int cmp_pidx(const void *x, const void *y)
{
    const pidx *a = x, *b = y;
    if (a->p != b->p)
        return (a->p > b->p) - (a->p < b->p);
    return (a->i > b->i) - (a->i < b->i);
}

bg_status bg_benjamini_hochberg(const double *p, size_t m, double *q)
{
    if (m == 0)
        return BG_OK;
    pidx *s = malloc(m * sizeof *s);
    if (!s)
        return BG_E_NOMEM;
    for (size_t i = 0; i < m; i++)
        s[i] = (pidx){p[i], i};
    qsort(s, m, sizeof *s, cmp_pidx);
    double run = 1.0;
    for (size_t k = m; k-- > 0;) {
        double adj = s[k].p * (double)m / (double)(k + 1);
        if (adj < run)
            run = adj;
        s[k].p = run;
    }
    for (size_t k = 0; k < m; k++)
        q[s[k].i] = s[k].p;
    free(s);
    return BG_OK;
}

static bg_status grouped_ok(const bg_grouped *s)
{
    if (!s || s->ng == 0 || s->off[0] != 0)
        return BG_E_USAGE;
    for (size_t k = 0; k < s->ng; k++)
        if (s->off[k + 1] <= s->off[k])
            return BG_E_USAGE;
    return BG_OK;
}

bg_status bg_group_medians(const bg_grouped *s, double *med)
{
    if (grouped_ok(s) != BG_OK)
        return BG_E_USAGE;
    for (size_t k = 0; k < s->ng; k++) {
        med[k] = bg_median(s->x + s->off[k], s->off[k + 1] - s->off[k]);
        if (isnan(med[k]))
            return BG_E_NOMEM;
    }
    return BG_OK;
}

bg_status bg_variance_split(const bg_grouped *s, double *between, double *within)
{
    *between = *within = NAN;
    if (grouped_ok(s) != BG_OK)
        return BG_E_USAGE;
    size_t g = s->ng, n = s->off[g];
    double total = 0, ssw = 0, sum_nk2 = 0;
    for (size_t i = 0; i < n; i++)
        total += s->x[i];
    double grand = total / (double)n, ssb = 0;
    for (size_t k = 0; k < g; k++) {
        size_t a = s->off[k], nk = s->off[k + 1] - a;
        double m = 0;
        for (size_t i = 0; i < nk; i++)
            m += s->x[a + i];
        m /= (double)nk;
        for (size_t i = 0; i < nk; i++)
            ssw += (s->x[a + i] - m) * (s->x[a + i] - m);
        ssb += (double)nk * (m - grand) * (m - grand);
        sum_nk2 += (double)nk * (double)nk;
    }
    double msw = n > g ? ssw / (double)(n - g) : NAN;
    *within = msw;
    if (g < 2)
        return BG_OK;
    double msb = ssb / (double)(g - 1);
    double n0 = ((double)n - sum_nk2 / (double)n) / (double)(g - 1);
    double b = (msb - (isnan(msw) ? 0.0 : msw)) / n0;
    *between = b > 0 ? b : 0.0;
    return BG_OK;
}

int bg_reps_per_process(double between, double within, double cost_process, double cost_rep,
                        int max_reps)
{
    if (max_reps < 1)
        max_reps = 1;
    if (isnan(within) || !(cost_rep > 0))
        return 1;
    if (isnan(between) || between <= 0)
        return max_reps;
    double r = ceil(sqrt(fmax(cost_process, 0.0) / cost_rep * within / between));
    if (!(r >= 1))
        return 1;
    return r > max_reps ? max_reps : (int)r;
}

bg_status bg_mann_whitney_exact_p(size_t m, size_t n, double u, double *p)
{
    if (m == 0 || n == 0 || m > 25 || n > 25)
        return BG_E_USAGE;
    double le, ge;
    bg_status st = exact_tails(m, n, u, &le, &ge);
    if (st != BG_OK)
        return st;
    double two = 2.0 * (le < ge ? le : ge);
    *p = two > 1.0 ? 1.0 : two;
    return BG_OK;
}

size_t bg_mann_whitney_rounds_for(double alpha, size_t m_tests)
{
    for (size_t k = 2; k <= 25; k++) {
        double p;
        if (bg_mann_whitney_exact_p(k, k, 1.0, &p) != BG_OK)
            return 0;
        if ((double)(m_tests ? m_tests : 1) * p < alpha)
            return k;
    }
    return 0;
}

/* One side of a two-level resample: ng processes drawn with replacement, each
 * one's samples drawn with replacement, the median of the drawn processes'
 * medians.  tmp: room for the largest process; meds: room for ng. */
static double resample2_median(bg_rng *r, const bg_grouped *s, double *tmp, double *meds)
{
    for (size_t k = 0; k < s->ng; k++) {
        size_t g = rng_index(r, s->ng), a = s->off[g], nk = s->off[g + 1] - a;
        meds[k] = resample_median(r, s->x + a, nk, tmp);
    }
    return median_inplace(meds, s->ng);
}

static size_t largest_group(const bg_grouped *s)
{
    size_t m = 0;
    for (size_t k = 0; k < s->ng; k++)
        if (s->off[k + 1] - s->off[k] > m)
            m = s->off[k + 1] - s->off[k];
    return m;
}

bg_status bg_bootstrap2_median_ratio(const bg_grouped *a, const bg_grouped *b, unsigned resamples,
                                     double level, uint64_t seed, double *lo, double *hi)
{
    if (grouped_ok(a) != BG_OK || grouped_ok(b) != BG_OK || resamples < 10 ||
        !(level > 0 && level < 1))
        return BG_E_USAGE;
    size_t big = largest_group(a) > largest_group(b) ? largest_group(a) : largest_group(b);
    size_t ng = a->ng > b->ng ? a->ng : b->ng;
    double *ratios = malloc(resamples * sizeof *ratios);
    double *tmp = malloc(big * sizeof *tmp);
    double *meds = malloc(ng * sizeof *meds);
    if (!ratios || !tmp || !meds) {
        free(ratios);
        free(tmp);
        free(meds);
        return BG_E_NOMEM;
    }
    bg_rng rng = {seed};
    for (unsigned k = 0; k < resamples; k++) {
        double ma = resample2_median(&rng, a, tmp, meds);
        double mb = resample2_median(&rng, b, tmp, meds);
        ratios[k] = mb / ma;
    }
    qsort(ratios, resamples, sizeof *ratios, cmp_double);
    *lo = quantile_sorted(ratios, resamples, (1.0 - level) / 2.0);
    *hi = quantile_sorted(ratios, resamples, (1.0 + level) / 2.0);
    free(ratios);
    free(tmp);
    free(meds);
    return BG_OK;
}

bg_status bg_bootstrap_median_ratio(const double *a, size_t na, const double *b, size_t nb,
                                    unsigned resamples, double level, uint64_t seed, double *lo,
                                    double *hi)
{
    /* every sample a process of its own: the two-level bootstrap's first
     * level is then the ordinary one, its second draws the sample itself */
    size_t n = na > nb ? na : nb;
    size_t *off = malloc((n + 1) * sizeof *off);
    if (!off)
        return BG_E_NOMEM;
    for (size_t k = 0; k <= n; k++)
        off[k] = k;
    bg_grouped ga = {a, off, na}, gb = {b, off, nb};
    bg_status st = bg_bootstrap2_median_ratio(&ga, &gb, resamples, level, seed, lo, hi);
    free(off);
    return st;
}
