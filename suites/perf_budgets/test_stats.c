/* perf-stats-tests — unit tests of bg_stats.h against values computed by hand.
 * Usage: perf-stats-tests  (records checks "perf.unit.stats.<case>").
 */
#include <math.h>
#include <stdio.h>

#include "buildgate/bg_check.h"
#include "buildgate/bg_stats.h"

static void expect(bg_checks *c, const char *name, double want, double got, double tol)
{
    char e[64], o[64];
    snprintf(e, sizeof e, "%.17g", want);
    snprintf(o, sizeof o, "%.17g", got);
    bg_check_emit_str(c, name, fabs(want - got) <= tol ? BG_PASS : BG_FAIL, e, o, NULL);
}

int main(void)
{
    bg_checks *c = bg_checks_open("perf_budgets");
    if (!c)
        return 3;
    /* Median: {3,1,2} sorts to {1,2,3} -> 2; {4,1,3,2} -> (2+3)/2 = 2.5. */
    expect(c, "perf.unit.stats.median_odd", 2.0, bg_median((double[]){3, 1, 2}, 3), 0);
    expect(c, "perf.unit.stats.median_even", 2.5, bg_median((double[]){4, 1, 3, 2}, 4), 0);
    /* MAD of {1,2,3,4,100}: median 3, |x-3| = {2,1,0,1,97} -> median 1. */
    expect(c, "perf.unit.stats.mad", 1.0, bg_mad((double[]){1, 2, 3, 4, 100}, 5), 0);

    /* Mann-Whitney, exact, m = n = 3: the C(6,3) = 20 orderings give U counts
     * u = 0..9: 1,1,2,3,3,3,3,2,1,1 (Hollander & Wolfe Table A.6).
     * a = {1,2,3}, b = {4,5,6}: U_a = 0, P(U <= 0) = 1/20, two-sided p = 0.1. */
    double u, p;
    bg_mann_whitney((double[]){1, 2, 3}, 3, (double[]){4, 5, 6}, 3, &u, &p);
    expect(c, "perf.unit.stats.mwu_separated.u", 0.0, u, 0);
    expect(c, "perf.unit.stats.mwu_separated.p", 0.1, p, 1e-12);
    /* a = {1,3,5}, b = {2,4,6}: pairs a > b: 3>2, 5>2, 5>4 -> U_a = 3;
     * P(U <= 3) = (1+1+2+3)/20 = 7/20, two-sided p = 0.7. */
    bg_mann_whitney((double[]){1, 3, 5}, 3, (double[]){2, 4, 6}, 3, &u, &p);
    expect(c, "perf.unit.stats.mwu_interleaved.u", 3.0, u, 0);
    expect(c, "perf.unit.stats.mwu_interleaved.p", 0.7, p, 1e-12);
    /* With ties, normal approximation: a = {1,2,2,3}, b = {2,3,4,5}.
     * Mid-ranks of the 8 values 1,2,2,2,3,3,4,5: 1, 3,3,3, 5.5,5.5, 7, 8.
     * R_a = 1+3+3+5.5 = 12.5, U_a = 12.5 - 4*5/2 = 2.5; mean mn/2 = 8.
     * Ties: t=3 (2s) -> 24, t=2 (3s) -> 6; sum 30.
     * var = 16/12 * (9 - 30/56) = 1.3333 * 8.4642857 = 11.285714.
     * z = (|2.5-8| - 0.5)/sqrt(11.285714) = 5/3.3594218 = 1.4883510;
     * p = erfc(z/sqrt 2) = 0.136660 (two-sided normal tail). */
    bg_mann_whitney((double[]){1, 2, 2, 3}, 4, (double[]){2, 3, 4, 5}, 4, &u, &p);
    expect(c, "perf.unit.stats.mwu_ties.u", 2.5, u, 0);
    expect(c, "perf.unit.stats.mwu_ties.p", 0.13666, p, 5e-5);

    /* Benjamini-Hochberg, p = {0.01, 0.04, 0.03, 0.005}, m = 4: sorted
     * 0.005, 0.01, 0.03, 0.04 -> p*m/rank = 0.02, 0.02, 0.04, 0.04; the running
     * minimum from the top keeps them: q = {0.02, 0.04, 0.04, 0.02}. */
    double q[4];
    bg_benjamini_hochberg((double[]){0.01, 0.04, 0.03, 0.005}, 4, q);
    expect(c, "perf.unit.stats.bh.q0", 0.02, q[0], 1e-15);
    expect(c, "perf.unit.stats.bh.q1", 0.04, q[1], 1e-15);
    expect(c, "perf.unit.stats.bh.q2", 0.04, q[2], 1e-15);
    expect(c, "perf.unit.stats.bh.q3", 0.02, q[3], 1e-15);

    /* Bootstrap: b = 1.1 * a exactly -> every resampled ratio... is not 1.1
     * (a and b are resampled independently), but with constant samples every
     * median is the constant: a = {2,2,2,2,2}, b = {2.2,...} -> [1.1, 1.1]. */
    double lo, hi;
    bg_bootstrap_median_ratio((double[]){2, 2, 2, 2, 2}, 5, (double[]){2.2, 2.2, 2.2, 2.2, 2.2}, 5,
                              1000, 0.95, 42, &lo, &hi);
    expect(c, "perf.unit.stats.bootstrap_const.lo", 1.1, lo, 1e-12);
    expect(c, "perf.unit.stats.bootstrap_const.hi", 1.1, hi, 1e-12);
    /* Same seed, same data -> the same interval (reproducible verdicts); the
     * A/A interval of identical samples contains 1. */
    double x[8] = {10, 11, 9, 10.5, 9.5, 10.2, 9.8, 10.1}, lo2, hi2;
    bg_bootstrap_median_ratio(x, 8, x, 8, 2000, 0.95, 7, &lo, &hi);
    bg_bootstrap_median_ratio(x, 8, x, 8, 2000, 0.95, 7, &lo2, &hi2);
    expect(c, "perf.unit.stats.bootstrap_seeded.lo", lo, lo2, 0);
    expect(c, "perf.unit.stats.bootstrap_seeded.hi", hi, hi2, 0);
    bg_check_emit_str(c, "perf.unit.stats.bootstrap_aa_contains_1", lo <= 1 && hi >= 1 ? BG_PASS : BG_FAIL,
                      "lo <= 1 <= hi", lo <= 1 && hi >= 1 ? "contains 1" : "excludes 1", NULL);
    return bg_checks_close(c);
}
