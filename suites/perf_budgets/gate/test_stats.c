/* perf-stats-tests — unit tests of bg_stats.h against values computed by hand.
 * Usage: perf-stats-tests  (records checks "perf.unit.stats.<case>").
 */
#include <math.h>
#include <stdio.h>

#include "buildgate/bg_check.h"
#include "buildgate/bg_stats.h"
#include "perf_binom.h"

static void expect(bg_checks *c, const char *name, double want, double got, double tol)
{
    char e[64], o[64];
    snprintf(e, sizeof e, "%.17g", want);
    snprintf(o, sizeof o, "%.17g", got);
    bg_check_emit_str(c, name, fabs(want - got) <= tol ? BG_PASS : BG_FAIL, e, o, NULL);
}

/* Processes of samples (bg_grouped): the unit of replication. */
static void grouped_tests(bg_checks *c)
{
    /* Process medians: {1,2,3} -> 2, {10,20} -> 15, {5} -> 5. */
    double x[] = {1, 2, 3, 10, 20, 5}, med[3];
    size_t off[] = {0, 3, 5, 6};
    bg_grouped g = {x, off, 3};
    bg_group_medians(&g, med);
    expect(c, "perf.unit.stats.group_medians.0", 2, med[0], 0);
    expect(c, "perf.unit.stats.group_medians.1", 15, med[1], 0);
    expect(c, "perf.unit.stats.group_medians.2", 5, med[2], 0);

    /* Variance split of {1,3} {5,7}: means 2, 6, grand mean 4.
     * SSW = 1+1+1+1 = 4 over N - G = 2 -> within = 2;
     * MSB = (2*(2-4)^2 + 2*(6-4)^2) / (G-1) = 16, n0 = (4 - 8/4)/1 = 2,
     * between = (16 - 2) / 2 = 7. */
    double y[] = {1, 3, 5, 7}, bw, wi;
    size_t yo[] = {0, 2, 4};
    bg_grouped gy = {y, yo, 2};
    bg_variance_split(&gy, &bw, &wi);
    expect(c, "perf.unit.stats.variance_split.between", 7, bw, 1e-12);
    expect(c, "perf.unit.stats.variance_split.within", 2, wi, 1e-12);
    /* All the variance between: {1,1} {5,5} -> within 0, between 8
     * (MSB = 2*4 + 2*4 = 16, n0 = 2). */
    double z[] = {1, 1, 5, 5};
    bg_grouped gz = {z, yo, 2};
    bg_variance_split(&gz, &bw, &wi);
    expect(c, "perf.unit.stats.variance_split_between_only.between", 8, bw, 1e-12);
    expect(c, "perf.unit.stats.variance_split_between_only.within", 0, wi, 0);

    /* Kalibera-Jones repetitions: ceil(sqrt(9/1 * 4/1)) = 6; ceil(sqrt(1/1 *
     * 1/100)) = ceil(0.1) = 1 (variance between processes: one repetition);
     * no between variance -> the cap. */
    expect(c, "perf.unit.stats.reps.within_dominates", 6, bg_reps_per_process(1, 4, 9, 1, 10), 0);
    expect(c, "perf.unit.stats.reps.between_dominates", 1, bg_reps_per_process(100, 1, 1, 1, 10), 0);
    expect(c, "perf.unit.stats.reps.no_between", 10, bg_reps_per_process(0, 1, 1, 1, 10), 0);

    /* Exact U p-values: 5 vs 5 fully separated: 2 / C(10,5) = 2/252;
     * 6 vs 6 with one pair out of order: P(U <= 1) = 2/924, two-sided 4/924. */
    double p;
    bg_mann_whitney_exact_p(5, 5, 0, &p);
    expect(c, "perf.unit.stats.mwu_exact.min_p_5x5", 2.0 / 252, p, 1e-15);
    bg_mann_whitney_exact_p(6, 6, 1, &p);
    expect(c, "perf.unit.stats.mwu_exact.u1_6x6", 4.0 / 924, p, 1e-15);
    /* Rounds that can reach alpha after BH: alpha 0.01, 1 benchmark: 5 vs 5
     * gives 4/252 = 0.0159 with U = 1 (no), 6 vs 6 4/924 = 0.0043 (yes) -> 6;
     * 4 benchmarks: 6 -> 4 * 0.0043 = 0.017 (no), 7 -> 4 * 4/3432 = 0.0047
     * (yes) -> 7; alpha 0.05, 1 benchmark: 4 -> 4/70 = 0.057 (no), 5 -> 5. */
    expect(c, "perf.unit.stats.rounds_for.a01_m1", 6, (double)bg_mann_whitney_rounds_for(0.01, 1), 0);
    expect(c, "perf.unit.stats.rounds_for.a01_m4", 7, (double)bg_mann_whitney_rounds_for(0.01, 4), 0);
    expect(c, "perf.unit.stats.rounds_for.a05_m1", 5, (double)bg_mann_whitney_rounds_for(0.05, 1), 0);

    /* Per-process U: base processes {1.00,1.01 | 1.03,1.04 | 1.06,1.07},
     * head {1.02,1.03 | 1.05,1.06 | 1.08,1.09}: process medians 1.005, 1.035,
     * 1.065 vs 1.025, 1.055, 1.085: base > head pairs: 1.035 > 1.025, 1.065 >
     * 1.025, 1.055 -> U = 3; 3 vs 3: P(U <= 3) = 7/20, p = 0.7. */
    double pa[] = {1.00, 1.01, 1.03, 1.04, 1.06, 1.07}, pb[] = {1.02, 1.03, 1.05, 1.06, 1.08, 1.09};
    size_t po[] = {0, 2, 4, 6};
    bg_grouped ga = {pa, po, 3}, gb = {pb, po, 3};
    double ma[3], mb[3], u;
    bg_group_medians(&ga, ma);
    bg_group_medians(&gb, mb);
    bg_mann_whitney(ma, 3, mb, 3, &u, &p);
    expect(c, "perf.unit.stats.per_process_u.u", 3, u, 0);
    expect(c, "perf.unit.stats.per_process_u.p", 0.7, p, 1e-12);

    /* Two-level bootstrap.  Constant processes: a {2,2}{2,2}, b {3,3}{3,3} ->
     * every resample 3/2: [1.5, 1.5]. */
    double ca[] = {2, 2, 2, 2}, cb[] = {3, 3, 3, 3}, lo, hi;
    size_t co[] = {0, 2, 4};
    bg_grouped gca = {ca, co, 2}, gcb = {cb, co, 2};
    bg_bootstrap2_median_ratio(&gca, &gcb, 1000, 0.95, 1, &lo, &hi);
    expect(c, "perf.unit.stats.bootstrap2_const.lo", 1.5, lo, 1e-12);
    expect(c, "perf.unit.stats.bootstrap2_const.hi", 1.5, hi, 1e-12);
    /* a {1,1,1}{1,1,1}; b {1,1,1}{2,2,2}: a resample of b draws two processes,
     * (1,1), (1,2), (2,2) with probabilities 1/4, 1/2, 1/4: median of medians
     * 1, 1.5, 2; a is always 1.  The 2.5 % and 97.5 % quantiles of 2000
     * ratios are therefore 1 and 2 exactly.  (A sample-level bootstrap of b's
     * six samples would see 6 independent values, not 2 processes.) */
    double ha[] = {1, 1, 1, 1, 1, 1}, hb[] = {1, 1, 1, 2, 2, 2};
    size_t ho[] = {0, 3, 6};
    bg_grouped gha = {ha, ho, 2}, ghb = {hb, ho, 2};
    bg_bootstrap2_median_ratio(&gha, &ghb, 2000, 0.95, 3, &lo, &hi);
    expect(c, "perf.unit.stats.bootstrap2_processes.lo", 1, lo, 1e-12);
    expect(c, "perf.unit.stats.bootstrap2_processes.hi", 2, hi, 1e-12);
    double lo2, hi2;
    bg_bootstrap2_median_ratio(&gha, &ghb, 2000, 0.95, 3, &lo2, &hi2);
    expect(c, "perf.unit.stats.bootstrap2_seeded.lo", lo, lo2, 0);
    expect(c, "perf.unit.stats.bootstrap2_seeded.hi", hi, hi2, 0);

    /* Pseudo-replication: 6 processes per side of 6 samples each, samples
     * within a process spread by 0.1 %, process offsets (A/A, same
     * distribution, an unlucky draw) base 0,1,..,5 %, head 2.5,3.5,..,7.5 %.
     * The sample-level U (36 vs 36) calls it significant (p < 0.001); the
     * per-process U (6 vs 6, U = 6: P(U <= 6) = 30/924) gives p = 0.065. */
    double sa[36], sb[36], psa[6], psb[6];
    size_t so[7];
    for (int k = 0; k < 6; k++) {
        so[k] = (size_t)k * 6;
        for (int i = 0; i < 6; i++) {
            sa[k * 6 + i] = (1.0 + 0.01 * k) * (1.0 + 0.001 * (i - 2.5));
            sb[k * 6 + i] = (1.025 + 0.01 * k) * (1.0 + 0.001 * (i - 2.5));
        }
    }
    so[6] = 36;
    bg_mann_whitney(sa, 36, sb, 36, &u, &p);
    bg_check_emit_str(c, "perf.unit.stats.pseudo_replication.sample_level_rejects",
                      p < 0.001 ? BG_PASS : BG_FAIL, "p < 0.001", p < 0.001 ? "p < 0.001" : "p >= 0.001", NULL);
    bg_grouped gsa = {sa, so, 6}, gsb = {sb, so, 6};
    bg_group_medians(&gsa, psa);
    bg_group_medians(&gsb, psb);
    bg_mann_whitney(psa, 6, psb, 6, &u, &p);
    expect(c, "perf.unit.stats.pseudo_replication.process_level_p", 60.0 / 924, p, 1e-12);
}

/* Clopper-Pearson 95 %: closed forms at the edges.  x = 0: hi = 1 - 0.025^(1/n)
 * (0/300 -> 0.0122215); x = n: lo = 0.025^(1/n); 1 of 2: hi solves
 * 1 - p^2 = 0.025 -> sqrt(0.975) = 0.9874209, lo = 1 - sqrt(0.975). */
static void clopper_pearson_tests(bg_checks *c)
{
    double lo, hi;
    perf_clopper_pearson(0, 300, 0.95, &lo, &hi);
    expect(c, "perf.unit.stats.clopper_pearson.0_of_300.lo", 0, lo, 0);
    expect(c, "perf.unit.stats.clopper_pearson.0_of_300.hi", 1 - pow(0.025, 1.0 / 300), hi, 1e-9);
    perf_clopper_pearson(20, 20, 0.95, &lo, &hi);
    expect(c, "perf.unit.stats.clopper_pearson.20_of_20.lo", pow(0.025, 1.0 / 20), lo, 1e-9);
    expect(c, "perf.unit.stats.clopper_pearson.20_of_20.hi", 1, hi, 0);
    perf_clopper_pearson(1, 2, 0.95, &lo, &hi);
    expect(c, "perf.unit.stats.clopper_pearson.1_of_2.lo", 1 - sqrt(0.975), lo, 1e-9);
    expect(c, "perf.unit.stats.clopper_pearson.1_of_2.hi", sqrt(0.975), hi, 1e-9);
    expect(c, "perf.unit.stats.clopper_pearson.refuses_x_above_n", -1,
           (double)perf_clopper_pearson(3, 2, 0.95, &lo, &hi), 0);
}

int main(void)
{
    bg_checks *c = bg_checks_open("perf_budgets");
    if (!c)
        return 3;
    clopper_pearson_tests(c);
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
    grouped_tests(c);
    return bg_checks_close(c);
}
