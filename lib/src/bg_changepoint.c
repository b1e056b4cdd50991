/* bg_changepoint.c — see bg_changepoint.h. */
#include "buildgate/bg_changepoint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_stats.h"

/* The largest Q over the splits of y[0..m-1] that leave min_size values on
 * each side; *tau = its split (first index of the right part).  -1 when the
 * segment is too short.  wl, wr: m + 1 doubles of scratch. */
static double best_split(const double *y, size_t m, size_t min_size, double *wl, double *wr,
                         size_t *tau)
{
    if (m < 2 * min_size)
        return -1;
    /* wl[t] = sum |y_i - y_k| over i < k < t; wr[t] = the same over t <= i < k < m */
    wl[0] = 0;
    for (size_t t = 0; t < m; t++) {
        double row = 0;
        for (size_t i = 0; i < t; i++)
            row += fabs(y[i] - y[t]);
        wl[t + 1] = wl[t] + row;
    }
    wr[m] = 0;
    for (size_t t = m; t-- > 0;) {
        double row = 0;
        for (size_t k = t + 1; k < m; k++)
            row += fabs(y[t] - y[k]);
        wr[t] = wr[t + 1] + row;
    }
    double total = wl[m], best = -1;
    for (size_t t = min_size; t + min_size <= m; t++) {
        double a = (double)t, b = (double)(m - t);
        double between = total - wl[t] - wr[t];
        double e = 2 * between / (a * b) - wl[t] / (a * (a - 1) / 2) - wr[t] / (b * (b - 1) / 2);
        double q = a * b / (a + b) * e;
        if (q > best) {
            best = q;
            *tau = t;
        }
    }
    return best;
}

static int cmp_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

static int cmp_change(const void *a, const void *b)
{
    size_t x = ((const bg_change *)a)->at, y = ((const bg_change *)b)->at;
    return x < y ? -1 : x > y;
}

/* The best split over every segment [bound[s], bound[s+1]) of y. */
static double best_over(const double *y, const size_t *bound, size_t nb, size_t min_size,
                        double *wl, double *wr, size_t *at)
{
    double best = -1;
    for (size_t s = 0; s + 1 < nb; s++) {
        size_t tau = 0;
        double q = best_split(y + bound[s], bound[s + 1] - bound[s], min_size, wl, wr, &tau);
        if (q > best) {
            best = q;
            *at = bound[s] + tau;
        }
    }
    return best;
}

bg_status bg_edivisive(const double *x, size_t n, const bg_changepoint_opts *o, bg_change *out,
                       size_t cap, size_t *nout)
{
    *nout = 0;
    if (!o || o->min_size < 2 || !(o->sig > 0 && o->sig < 1) || o->permutations < 19 || n > 100000)
        return bg_fail(BG_E_USAGE, "changepoint", "min_size >= 2, sig in (0, 1), permutations >= 19 "
                                                  "and at most 100000 values");
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i]))
            return bg_fail(BG_E_USAGE, "changepoint", "value %zu is not a finite number", i);
    double *wl = malloc((n + 1) * sizeof *wl), *wr = malloc((n + 1) * sizeof *wr);
    double *perm = malloc((n ? n : 1) * sizeof *perm);
    size_t *bound = malloc((n + 2) * sizeof *bound);
    if (!wl || !wr || !perm || !bound) {
        free(wl), free(wr), free(perm), free(bound);
        return bg_fail(BG_E_NOMEM, "changepoint", "out of memory for %zu values", n);
    }
    size_t nb = 2;
    bound[0] = 0, bound[1] = n;
    bg_rng rng = {o->seed};
    while (*nout < cap) {
        size_t at = 0;
        double q = best_over(x, bound, nb, o->min_size, wl, wr, &at);
        if (q < 0)
            break; /* no segment long enough to split */
        /* permutation test: the values of each segment shuffled within it */
        unsigned ge = 0;
        for (unsigned r = 0; r < o->permutations; r++) {
            memcpy(perm, x, n * sizeof *perm);
            for (size_t s = 0; s + 1 < nb; s++)
                for (size_t i = bound[s + 1] - 1; i > bound[s]; i--) {
                    size_t j = bound[s] + (size_t)(bg_rng_next(&rng) % (i - bound[s] + 1));
                    double t = perm[i];
                    perm[i] = perm[j], perm[j] = t;
                }
            size_t unused;
            ge += best_over(perm, bound, nb, o->min_size, wl, wr, &unused) >= q;
        }
        double p = (1.0 + ge) / (1.0 + o->permutations);
        if (p > o->sig)
            break;
        out[*nout].at = at, out[*nout].q = q, out[*nout].p = p;
        ++*nout;
        bound[nb++] = at;
        qsort(bound, nb, sizeof *bound, cmp_size);
    }
    qsort(out, *nout, sizeof *out, cmp_change);
    /* each change's level before and after, from the final segments */
    for (size_t c = 0; c < *nout; c++) {
        size_t lo = c ? out[c - 1].at : 0, hi = c + 1 < *nout ? out[c + 1].at : n;
        out[c].before = bg_median(x + lo, out[c].at - lo);
        out[c].after = bg_median(x + out[c].at, hi - out[c].at);
    }
    free(wl), free(wr), free(perm), free(bound);
    return BG_OK;
}
