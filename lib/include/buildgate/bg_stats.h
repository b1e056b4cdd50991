/* bg_stats.h — robust statistics for the performance gate.
 *
 * Samples are arrays of doubles (one value per Google Benchmark repetition,
 * e.g. ns per iteration).  Nothing here allocates more than O(n) and nothing
 * depends on global state: the bootstrap takes its own seed, so the same
 * inputs always give the same interval (reproducible verdicts).
 *
 * Sources: Hollander & Wolfe, "Nonparametric Statistical Methods" (2nd ed.,
 * 1999), ch. 4 (Mann-Whitney U, exact null distribution by recursion, normal
 * approximation with tie and continuity corrections); Efron & Tibshirani,
 * "An Introduction to the Bootstrap" (1993), ch. 13 (percentile interval);
 * Benjamini & Hochberg, JRSS B 57 (1995) 289-300 (step-up FDR procedure);
 * Vigna, "splitmix64" (2015) for the resampling PRNG.
 */
#ifndef BG_STATS_H
#define BG_STATS_H

#include <stddef.h>
#include <stdint.h>

#include "buildgate/bg_error.h"

/* Median of x[0..n-1] (mean of the two middle values when n is even).
 * x is not modified.  n == 0 -> NaN. */
double bg_median(const double *x, size_t n);

/* Median absolute deviation from the median, unscaled (multiply by 1.4826
 * for a normal-consistent sigma).  n == 0 -> NaN. */
double bg_mad(const double *x, size_t n);

/* Mann-Whitney U test of samples a (na) and b (nb), two-sided.
 * *u_a = number of pairs (i, j) with a[i] > b[j], plus 1/2 per tie.
 * *p = two-sided p-value: exact (null distribution of U by the recursion
 * N(m, n, u) = N(m-1, n, u-n) + N(m, n-1, u)) when there are no ties and
 * na, nb <= 25; otherwise the normal approximation with tie-corrected
 * variance and continuity correction 1/2.
 * BG_E_USAGE when na or nb is 0; BG_E_NOMEM. */
bg_status bg_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u_a,
                          double *p);

/* splitmix64 state and step (Vigna 2015). */
typedef struct bg_rng {
    uint64_t s;
} bg_rng;
uint64_t bg_rng_next(bg_rng *r);

/* Percentile bootstrap interval of median(b)/median(a): `resamples` times,
 * draw na values from a and nb from b with replacement (PRNG seeded with
 * seed), take the ratio of medians; *lo and *hi are the (1-level)/2 and
 * (1+level)/2 quantiles of those ratios (level e.g. 0.95).
 * BG_E_USAGE on empty samples, resamples < 10 or level outside (0, 1);
 * BG_E_NOMEM. */
bg_status bg_bootstrap_median_ratio(const double *a, size_t na, const double *b, size_t nb,
                                    unsigned resamples, double level, uint64_t seed, double *lo,
                                    double *hi);

/* Benjamini-Hochberg adjusted p-values (q-values): q[i] = min over ranks
 * k >= rank(p[i]) of p_(k) * m / k, capped at 1.  Rejecting q[i] < alpha
 * controls the false discovery rate at alpha.  p and q may alias.
 * BG_E_NOMEM. */
bg_status bg_benjamini_hochberg(const double *p, size_t m, double *q);

#endif
