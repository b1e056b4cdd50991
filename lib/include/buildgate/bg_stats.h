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
 * Vigna, "splitmix64" (2015) for the resampling PRNG; Kalibera & Jones,
 * "Rigorous Benchmarking in Reasonable Time", ISMM 2013 (processes and
 * repetitions as levels of replication, the hierarchical bootstrap, the
 * optimal repetitions per level); Searle, Casella & McCulloch, "Variance
 * Components" (1992) ch. 3 (one-way random-effects ANOVA estimators).
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

/* Percentile bootstrap interval of median(b)/median(a), every sample taken
 * as independent (bg_bootstrap2_median_ratio with one process per sample):
 * `resamples` times, draw na values from a and nb from b with replacement
 * (PRNG seeded with seed), take the ratio of medians; *lo and *hi are the (1-level)/2 and
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

/* Samples in processes: group k (one benchmark process, the independent unit
 * of replication) holds x[off[k]] .. x[off[k+1]-1] (its repetitions); off has
 * ng + 1 entries, off[0] = 0, off[ng] = the number of samples, and every
 * group is non-empty. */
typedef struct bg_grouped {
    const double *x;
    const size_t *off;
    size_t ng;
} bg_grouped;

/* med[k] = median of group k's samples (k = 0..ng-1).  BG_E_USAGE when ng is
 * 0 or a group is empty; BG_E_NOMEM. */
bg_status bg_group_medians(const bg_grouped *s, double *med);

/* Variance components of the one-way random-effects model x = mu + P_k + e:
 * *within = sigma_e^2 = MSW = sum_k sum_i (x_ki - mean_k)^2 / (N - ng);
 * *between = sigma_P^2 = max(0, (MSB - MSW) / n0), MSB = sum_k n_k (mean_k -
 * mean)^2 / (ng - 1), n0 = (N - sum_k n_k^2 / N) / (ng - 1) (= the repetitions
 * per process when all are equal).  Units: the samples' squared.  NaN for a
 * component that cannot be estimated (within: N == ng, every process one
 * sample; between: ng < 2).  BG_E_USAGE when ng is 0. */
bg_status bg_variance_split(const bg_grouped *s, double *between, double *within);

/* Kalibera & Jones 2013 (sec. 4, optimal repetition counts): the repetitions
 * per process that give the narrowest interval for a given time,
 * ceil(sqrt((cost_process / cost_rep) * (within / between))), clamped to
 * 1..max_reps: few when the variance lies between processes (then processes
 * are what buys precision), many when it lies within them and a process is
 * expensive to start.  cost_process: seconds a process spends outside its
 * repetitions (start, set-up, iteration estimation); cost_rep: seconds per
 * repetition.  between == 0 (or NaN) -> max_reps; within NaN -> 1. */
int bg_reps_per_process(double between, double within, double cost_process, double cost_rep,
                        int max_reps);

/* Exact two-sided Mann-Whitney p of U = u for sizes m, n without ties (the
 * smallest p the test can give is the one of u = 0: 2 / C(m+n, m)).  Sizes
 * up to 25.  BG_E_USAGE otherwise; BG_E_NOMEM. */
bg_status bg_mann_whitney_exact_p(size_t m, size_t n, double u, double *p);

/* The fewest processes per side k (2..25) for which a per-process Mann-
 * Whitney test of k against k, with one pair out of order (U = 1), still
 * reaches q < alpha after Benjamini-Hochberg over m_tests benchmarks of which
 * only this one moved: m_tests * p(U = 1; k, k) < alpha.  Fewer processes and
 * the gate cannot fail that benchmark whatever the data.  0 when even 25 is
 * not enough; BG_E_NOMEM -> 0. */
size_t bg_mann_whitney_rounds_for(double alpha, size_t m_tests);

/* Two-level (hierarchical) percentile bootstrap of the ratio of medians of
 * process medians, median_k(med_k(b)) / median_k(med_k(a)) (Kalibera & Jones
 * 2013 sec. 5; Davison & Hinkley 1997 sec. 3.8): each of `resamples` times
 * and for each side, draw ng processes with replacement, then within each
 * drawn process its n_k samples with replacement, take each drawn process's
 * median and the median of those.  Resampling processes carries the
 * between-process variance into the interval, which resampling samples alone
 * (bg_bootstrap_median_ratio) leaves out when the samples of one process are
 * correlated.  *lo, *hi: the (1-level)/2 and (1+level)/2 quantiles (type 7).
 * Seeded (splitmix64): the same input and seed give the same interval.
 * BG_E_USAGE on an empty side, resamples < 10 or level outside (0, 1);
 * BG_E_NOMEM. */
bg_status bg_bootstrap2_median_ratio(const bg_grouped *a, const bg_grouped *b, unsigned resamples,
                                     double level, uint64_t seed, double *lo, double *hi);

#endif
