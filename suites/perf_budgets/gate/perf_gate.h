/* perf_gate.h — the verdict for each benchmark: head against base.
 *
 * The unit of replication is the process (docs/perf_budgets.md): each
 * process's repetitions are summarised by their median, and the processes'
 * medians are what is compared (Kalibera & Jones, "Rigorous Benchmarking in
 * Reasonable Time", ISMM 2013).  For each benchmark present on both sides, in
 * the budget's metric:
 *   ratio  = median of head's process medians / median of base's, for
 *            times; base/head for rates, so ratio > 1 always means "slower";
 *   [lo, hi] = two-level percentile bootstrap interval of that ratio
 *            (processes, then samples within each; bg_bootstrap2_median_ratio,
 *            seed = FNV-1a of the benchmark name: same input, same interval);
 *   p      = two-sided Mann-Whitney U p-value of the process medians (exact
 *            when no ties); q = Benjamini-Hochberg adjusted p across every
 *            benchmark compared in this run;
 *   between/within = variance components (bg_variance_split), pooled over
 *            the two sides, as relative standard deviations.
 * Decision (band b, FDR level alpha):
 *   fail         lo > 1 + b and q < alpha   (the whole interval is beyond the band)
 *   improved     hi < 1 - b and q < alpha   (reported as pass with a note)
 *   inconclusive fewer than min_repetitions processes on a side, or the
 *                interval straddles 1 + b, or it lies beyond 1 + b with q >= alpha
 *   pass         otherwise
 * Benchmarks not measured on both sides (docs/perf_budgets.md "One-sided
 * benchmarks"), decided in this order, with the reason in why:
 *   fail  an error on either side: error_occurred, or the metric missing,
 *         non-finite or not positive (perf_samples.h), the side named
 *   skip  the benchmark skipped itself on either side (its skip_message)
 *   fail  in the base only: "vanished: in the base, not in the head" ...
 *   skip  ... unless budgets.json retires it with a reason (perf_budget.h)
 *   skip  in the head only: "new, no reference"
 *   fail  missing from some processes of a side: "<side>: missing from N of
 *         M processes" (perf_set_expect, perf_samples.h): never judged on
 *         the few processes that ran it
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
    size_t n_base, n_head;          /* samples */
    size_t np_base, np_head;        /* processes */
    size_t agg_base, agg_head;      /* of them judged on their median aggregate (perf_samples.h) */
    double *proc_base, *proc_head;  /* the process medians (owned: perf_results_free) */
    double med_base, med_head;      /* medians of the process medians */
    double mad_base, mad_head;      /* MAD of the process medians */
    double between, within;         /* relative standard deviations: between processes, within one */
    int reps_advice;                /* repetitions per process by bg_reps_per_process, 0 unknown */
    double ratio, lo, hi, u, p, q;
    perf_outcome outcome;
    int one_side;                   /* 0 in both sets, PERF_BASE_ONLY, PERF_HEAD_ONLY */
    int measured;                   /* 1: judged on its samples; 0: decided from why */
    int paired;                     /* 1: judged on pairs (perf_paired.h); np_base = np_head pairs */
    double pair_sd;                 /* paired: sd of the per-pair log ratios ln(head/base), NaN < 2 pairs */
    char why[448];                  /* !measured: the reason, e.g. "vanished: ..."; measured: why
                                       it is inconclusive when no interval says it ("" otherwise) */
} perf_result;

#define PERF_BASE_ONLY 1
#define PERF_HEAD_ONLY 2

/* "pass", "improved", "inconclusive", "fail", "skip". */
const char *perf_outcome_name(perf_outcome o);

/* Compares every benchmark of either set: *out (perf_results_free) gets one
 * result per name, head's in head's order, then the base-only ones in base's
 * order (*n_out of them).  BG_E_NOMEM. */
bg_status perf_gate_compare(const perf_set *base, const perf_set *head, const cJSON *budgets,
                            perf_result **out, size_t *n_out);

/* Benjamini-Hochberg q over the p of the measured results of r, then each
 * one's outcome by the decision above (perf_gate_compare's last step; again
 * after a judge replaced ratio, lo, hi and p, perf_paired.h).  BG_E_NOMEM. */
bg_status perf_gate_decide(perf_result *r, size_t n);

/* 1 when r is an unresolved slowdown: inconclusive although its whole
 * interval lies above 1 + band (lo > 1 + band) -- a clear shift that is not
 * significant (q >= alpha) or has fewer than min_repetitions processes.  The
 * judge confirms it with more rounds and, if it stays, reports it first
 * (docs/perf_budgets.md "No silent pass of a clear shift"). */
int perf_result_unresolved(const perf_result *r);

/* Frees results from perf_gate_compare (and their process medians). */
void perf_results_free(perf_result *r, size_t n);

/* The cap on reps_advice (and on bg-perf ab's chosen repetitions). */
#define PERF_MAX_REPS 10

/* One of r's standard deviations as text: "1.23%", or, when it cannot be
 * estimated (NaN), "n/a (one process a side)" (between) or "n/a (one
 * sample a process)" (within; "n/a (median aggregate only)" when a side
 * has aggregate-only processes: perf_samples.h), never "nan%".  between of a paired result:
 * its pair_sd (the spread the paired judge works on; the between-process
 * one is what the pairs cancel), "n/a (one pair)" when NaN. */
void perf_result_sd(const perf_result *r, int between, char *buf, size_t n);

/* One line: "<name>: <outcome> ratio 1.103 [1.095, 1.112] band +-5.0% p=2e-04 q=4e-04
 * (processes 7/7, samples 21/21, ..., sd between 2.1% within 0.4%)"; paired:
 * "(pairs 9, samples 27/27, ..., sd of the pair log ratios 0.8%, within 0.4%)";
 * then ": <why>" when a measured result has one. */
void perf_result_line(const perf_result *r, char *buf, size_t n);

#endif
