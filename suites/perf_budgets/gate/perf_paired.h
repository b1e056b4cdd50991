/* perf_paired.h — the judge of paired runs (bg-perf ab --duet, bg-perf
 * compare --paired): one pair = one base and one head process that ran at
 * the same time (perf_duet.h) = one unit of replication.
 *
 * Per pair k the log ratio d_k = ln(head_k / base_k) of the two processes'
 * medians (ln(base_k / head_k) for a rate, so d > 0 always means slower).
 * Statistics (Hollander & Wolfe, "Nonparametric Statistical Methods", 2nd
 * ed. 1999, ch. 3.1-3.3: the one-sample / paired-replicates location
 * problem):
 *   ratio    = exp(Hodges-Lehmann estimate) = exp(median of the n(n+1)/2
 *              Walsh averages (d_i + d_j) / 2, i <= j);
 *   [lo, hi] = exp of the Walsh averages of order C and M + 1 - C
 *              (M = n(n+1)/2): the distribution-free interval of the
 *              signed-rank test, C the largest with P(T+ < C) <= (1-level)/2
 *              under the null (exact distribution); C at least 1 (then the
 *              interval is [min, max] of the Walsh averages, with coverage
 *              1 - 2^(1-n): below `level` for n <= 5 at 95 %);
 *   p        = two-sided Wilcoxon signed-rank p of the d_k (zeros dropped):
 *              exact without ties among |d|, else the normal approximation
 *              with tie correction and continuity correction 1/2.
 * Only a symmetric distribution of d around its centre is assumed, not
 * normality; the pairs are independent when each pair is its own two
 * processes.
 */
#ifndef PERF_PAIRED_H
#define PERF_PAIRED_H

#include <stddef.h>

#include "buildgate/bg_error.h"
#include "perf_gate.h"

/* The statistics above of d[0..n-1] (n >= 1): *est (Hodges-Lehmann, in d's
 * unit), *lo, *hi at `level` (0 < level < 1), *p.  BG_E_USAGE n == 0 or
 * level outside (0, 1); BG_E_NOMEM. */
bg_status perf_paired_stats(const double *d, size_t n, double level, double *est, double *lo,
                            double *hi, double *p);

/* Re-judges the measured results of perf_gate_compare on pairs: where both
 * sides have the same number of processes (process k of each side = pair k),
 * ratio, lo, hi and p become the paired ones above, paired = 1 and pair_sd
 * the standard deviation of the d_k (perf_gate.h), then q (Benjamini-
 * Hochberg over the measured results) and the outcome are decided again by
 * perf_gate_decide.  A paired result with fewer pairs than
 * perf_paired_pairs_min(its alpha) is then inconclusive whatever its
 * interval, with the reason in why ("7 pairs: ...").  A result with unequal
 * process counts keeps its unpaired statistics (*unpaired counts them).
 * BG_E_NOMEM. */
bg_status perf_paired_rejudge(perf_result *r, size_t n, size_t *unpaired);

/* The fewest pairs n (1..60) with which the two-sided exact signed-rank
 * test can reach p < alpha at all: its smallest p, every pair in one
 * direction, is 2 / 2^n, so n = the fewest with 2^(1-n) < alpha (alpha 0.01:
 * 8, as 2/128 = 0.0156 and 2/256 = 0.0078; alpha 0.05: 6).  Below it no
 * benchmark can fail or improve, whatever its shift.  0 when 60 is not
 * enough (alpha <= 2^-59). */
size_t perf_paired_pairs_min(double alpha);

/* The fewest pairs (2..60) for which the two-sided exact signed-rank test,
 * with the smallest pair out of direction, reaches q < alpha after
 * Benjamini-Hochberg over m_tests benchmarks: m_tests * 4 / 2^n < alpha.
 * 0 when 60 is not enough. */
size_t perf_paired_pairs_for(double alpha, size_t m_tests);

/* Sequential pairs: decide or say why not (docs/perf_budgets.md "Sequential
 * pairs").  After the reruns, a paired benchmark still inconclusive (its
 * interval straddles 1 + band or 1 - band, or it is not significant) gets up
 * to seq_looks more looks (its budget; 0: off), each adding pairs, until it is
 * DIFFERENT (fail, or improved: the interval beyond the band and q < alpha),
 * SAME (pass: the interval inside the band) or the caps are reached
 * (seq_max_pairs pairs in all, or the looks took seq_time_cap seconds or the
 * next one would pass it, predicted for the first look from the last rerun:
 * bg_perf_main.c seq_pairs), then
 * UNKNOWN (inconclusive, saying how many pairs ran and what interval would
 * decide).  The model: Chromium Pinpoint's compare (catapult
 * dashboard/pinpoint/models/compare/compare.py, thresholds.py): DIFFERENT /
 * SAME / UNKNOWN, and UNKNOWN means "collect more and look again"; Pinpoint's
 * SAME threshold falls with the sample size, here the band is fixed and the
 * interval narrows with the pairs.  Unlike Pinpoint's fixed low threshold,
 * every look is a new chance of a false alarm, so each sequential look judges
 * at alpha / seq_looks and its interval at level 1 - (1 - level) / seq_looks
 * (Bonferroni over the looks: the looks together add at most alpha, and
 * (1 - level), of false DIFFERENT to what the first judgement had). */

/* 1 when x is open for a sequential look: measured, paired, inconclusive,
 * seq_looks > 0 and fewer than seq_max_pairs pairs. */
int perf_paired_seq_open(const perf_result *x);

/* Re-judges as perf_paired_rejudge, but the results named in seq[0..nseq-1]
 * (those undecided when the sequential looks began) at the per-look alpha and
 * level above.  BG_E_NOMEM. */
bg_status perf_paired_rejudge_seq(perf_result *r, size_t n, char *const *seq, size_t nseq, size_t *unpaired);

/* The pairs to add at look `look` (1-based) of the largest seq_looks of the
 * open results: the pairs left to the largest seq_max_pairs, spread evenly
 * over the looks left (at least 1); 0 when none is open. */
size_t perf_paired_seq_add(const perf_result *r, size_t n, int look);

/* The largest seq_looks of the results named in seq[]. */
int perf_paired_seq_looks(const perf_result *r, size_t n, char *const *seq, size_t nseq);

/* Why the looks ended once perf_paired_seq_add gave 0 after `looks` looks:
 * "seq_max_pairs reached" when an undecided one of seq[] has its
 * seq_max_pairs, else "all <looks> looks done". */
const char *perf_paired_seq_stop(const perf_result *r, size_t n, char *const *seq, size_t nseq);

/* Marks every open result (perf_paired_seq_open, or inconclusive at its
 * caps) among seq[] UNKNOWN: it stays inconclusive, why = "UNKNOWN after N
 * pairs (<looks> sequential looks, <stop>): interval [lo, hi] straddles ...;
 * deciding needs it within +-H % of the estimate, about P pairs at this
 * spread".  stop says which cap ended the looks. */
void perf_paired_seq_unknown(perf_result *r, size_t n, char *const *seq, size_t nseq, int looks,
                             const char *stop);

#endif
