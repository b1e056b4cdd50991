/* bg_changepoint.h — change points of a series: E-Divisive with means
 * (energy statistic, hierarchical, permutation-tested).
 *
 * For the perf history (docs/perf_budgets.md "Change points over main's
 * history"): one value per nightly run of a benchmark on one host, in commit
 * order.  A step that every single pull request's A/B left undecided (2 %
 * under per-PR noise) shows in the history as a shift of the level that
 * stays.
 *
 * Sources: Matteson & James, "A Nonparametric Approach for Multiple Change
 * Point Analysis of Multivariate Data", JASA 109 (2014) 334-345, sec. 2-3:
 * the divergence E(X,Y;a) = 2/(mn) sum|X_i-Y_j|^a - C(m,2)^-1 sum|X_i-X_k|^a
 * - C(n,2)^-1 sum|Y_j-Y_k|^a, the statistic Q = mn/(m+n) E, the hierarchical
 * search and its permutation test; a = 1 here.  As in Daly et al., "The Use
 * of Change Point Detection to Identify Software Performance Regressions in a
 * Continuous Integration System", ICPE 2020 (MongoDB; Apache Otava derives
 * from it), each split ends at its segment's end (kappa fixed), which makes
 * one search O(n^2).
 */
#ifndef BG_CHANGEPOINT_H
#define BG_CHANGEPOINT_H

#include <stddef.h>
#include <stdint.h>

#include "buildgate/bg_error.h"

/* One change point: the series' level changes between x[at-1] and x[at]. */
typedef struct bg_change {
    size_t at;     /* index of the first value after the change, 1..n-1 */
    double q;      /* the statistic Q of the split (units of x) */
    double p;      /* permutation p-value when it was accepted */
    double before; /* median of the segment ending at at (as finally split) */
    double after;  /* median of the segment starting at at */
} bg_change;

typedef struct bg_changepoint_opts {
    size_t min_size;       /* fewest values on each side of a change (>= 2; 5 is usual) */
    double sig;            /* accept a change when its permutation p <= sig (e.g. 0.01) */
    unsigned permutations; /* permutations per test (>= 19; 199 gives p down to 0.005) */
    uint64_t seed;         /* the permutations' PRNG seed (splitmix64): same input, same answer */
} bg_changepoint_opts;

/* The change points of x[0..n-1] (n <= 100000), in increasing order of at,
 * at most cap of them, their count in *nout.  Hierarchical: the split with
 * the largest Q over the current segments is tested by permuting the values
 * inside each segment (`permutations` times; p = (1 + #{Q* >= Q}) / (1 +
 * permutations)); accepted -> its segment is split and the search repeats;
 * else the search stops.  NaN or infinite values: BG_E_USAGE.  BG_E_USAGE
 * on min_size < 2, sig outside (0, 1), permutations < 19; BG_E_NOMEM. */
bg_status bg_edivisive(const double *x, size_t n, const bg_changepoint_opts *o, bg_change *out,
                       size_t cap, size_t *nout);

#endif
