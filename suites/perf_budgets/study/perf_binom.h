/* perf_binom.h — confidence interval of a binomial proportion (the
 * false-alarm and detection rates of the A/A studies, docs/performance.md).
 */
#ifndef PERF_BINOM_H
#define PERF_BINOM_H

#include <stddef.h>

/* Clopper-Pearson ("exact") two-sided interval for the proportion behind x
 * successes in n independent trials, at confidence level (e.g. 0.95):
 * lo solves P(X >= x; n, lo) = (1 - level) / 2 (0 when x = 0), hi solves
 * P(X <= x; n, hi) = (1 - level) / 2 (1 when x = n); found by bisection on
 * the binomial CDF (lgamma terms), to 1e-12.  Clopper & Pearson, Biometrika
 * 26 (1934).  Examples: 0/300 -> [0, 0.0122]; 5/1000 -> [0.00163, 0.01163].
 * Returns 0, or -1 (lo = hi = NaN) when n = 0, x > n or level not in (0, 1). */
int perf_clopper_pearson(size_t x, size_t n, double level, double *lo, double *hi);

#endif
