/* perf_gate.h — the verdict for each benchmark: head against base.
 *
 * For each benchmark present on both sides, in the budget's metric:
 *   ratio  = median(head) / median(base) for times, median(base) /
 *            median(head) for rates, so ratio > 1 always means "slower";
 *   [lo, hi] = percentile bootstrap interval of that ratio (bg_stats.h,
 *            fixed seed derived from the benchmark name: same input, same
 *            interval);
 *   p      = two-sided Mann-Whitney U p-value; q = Benjamini-Hochberg
 *            adjusted p across every benchmark compared in this run.
 * Decision (band b, FDR level alpha):
 *   fail         lo > 1 + b and q < alpha   (the whole interval is beyond the band)
 *   improved     hi < 1 - b and q < alpha   (reported as pass with a note)
 *   inconclusive fewer than min_repetitions samples on a side, or the
 *                interval straddles 1 + b, or it lies beyond 1 + b with q >= alpha
 *   pass         otherwise
 *   skip         the benchmark is missing on one side
 */
#ifndef PERF_GATE_H
#define PERF_GATE_H

#include <cjson/cJSON.h>

#include "perf_budget.h"
#include "perf_samples.h"

typedef enum perf_outcome {
    PERF_PASS,
    PERF_IMPROVED,
    PERF_INCONCLUSIVE,
    PERF_FAIL,
    PERF_SKIP
} perf_outcome;

typedef struct perf_result {
    const char *name; /* points into the head set */
    perf_budget budget;
    size_t n_base, n_head;
    double med_base, med_head, mad_base, mad_head;
    double ratio, lo, hi, u, p, q;
    perf_outcome outcome;
} perf_result;

/* "pass", "improved", "inconclusive", "fail", "skip". */
const char *perf_outcome_name(perf_outcome o);

/* Compares every benchmark of head (names matching nothing in base -> skip).
 * *out (caller frees) gets head->n results in head's order.  BG_E_NOMEM. */
bg_status perf_gate_compare(const perf_set *base, const perf_set *head, const cJSON *budgets,
                            perf_result **out, size_t *n_out);

/* One line: "<name>: <outcome> ratio 1.103 [1.095, 1.112] band +-5.0% p=2e-04 q=4e-04 (n 10/10)". */
void perf_result_line(const perf_result *r, char *buf, size_t n);

#endif
