/* litmus_verdict.h — from an outcome histogram to verdicts.
 *
 * Forbidden check: an outcome is allowed when it is SC-reachable, or when it
 * is the test's relaxed ("exists") outcome and the model allows it; anything
 * else (including values outside 0..2 and keys the catalogue does not know)
 * is forbidden.  Seen -> fail with count, rate per million and the outcome;
 * never seen in N -> pass, with the 95% upper bound on its rate: 3/N (the
 * "rule of three", -ln(0.05)/N = 2.996/N; Hanley & Lippman-Hand, JAMA 1983).
 *
 * Power check: the arch's control (SB on x86-64, MP plain on arm64) must show
 * its relaxed outcome at least once; otherwise the run could not have seen a
 * reordering, and the verdict is inconclusive with the likely reason. */
#ifndef LITMUS_VERDICT_H
#define LITMUS_VERDICT_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

#include "buildgate/bg_error.h"
#include "litmus_catalog.h"

/* Fills counts[litmus_outcome_count(t) + 1] from a probe histogram object
 * {"<key>": count}; unknown keys go to the last ("impossible") bucket.
 * BG_E_PARSE when hist is no object or a count is no non-negative integer. */
bg_status litmus_histogram_parse(const litmus_test *t, const cJSON *hist,
                                 uint64_t *counts, uint64_t *total);

/* allowed[count] for test t: SC-reachable outcomes, plus exists when
 * exists_allowed.  allowed has litmus_outcome_count(t) entries. */
void litmus_allowed(const litmus_test *t, unsigned exists, int exists_allowed,
                    unsigned char *allowed);

/* Total of forbidden counts; *worst = the most frequent forbidden outcome
 * index (count = the impossible bucket) when the total is non-zero. */
uint64_t litmus_forbidden(const litmus_test *t, const uint64_t *counts,
                          const unsigned char *allowed, unsigned *worst);

/* Verdict of the forbidden check.  forbidden: forbidden outcomes seen;
 * deviation: a known deviation covers this runner/model/test and its
 * recorded rate is dev_rate_pm per million.
 *   seen, no deviation            -> fail
 *   seen, deviation               -> xfail (only_exists: all of them are the
 *                                    test's relaxed outcome; else fail)
 *   none, no deviation            -> pass
 *   none, deviation, the recorded rate predicts >= 20 in n (P(0) < 3e-9)
 *                                 -> xpass (the deviation is gone)
 *   none, deviation, fewer        -> inconclusive (too few to call it gone) */
int litmus_forbidden_verdict(uint64_t forbidden, int only_exists, int deviation,
                             double dev_rate_pm, uint64_t n);

/* k per million of n (0 when n == 0). */
double litmus_per_million(uint64_t k, uint64_t n);

/* 95% upper bound, per million, on a rate never observed in n trials: 3e6/n. */
double litmus_upper95_per_million(uint64_t n);

/* Why a run shows no relaxed outcome, from what is known of it:
 * runner name, probe and host architectures, online CPUs. */
void litmus_no_power_reason(const char *runner, const char *probe_arch, const char *host_arch,
                            int ncpu, char *buf, size_t n);

#endif
