/* perf_report.h — turning gate results into checks, a Markdown fragment
 * (table + chart of ratios with intervals) and stdout lines. */
#ifndef PERF_REPORT_H
#define PERF_REPORT_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "perf_gate.h"

/* Emits one check per result, "perf.<mode>.<name>"; writes
 * $(dirname $BG_CHECKS_FILE)/perf_budgets--<BG_TEST_NAME>.md when
 * BG_CHECKS_FILE is set.  Unresolved slowdowns (perf_result_unresolved) come
 * FIRST, on stdout and in the Markdown, one line each:
 *   "UNRESOLVED SLOWDOWN: <name> ratio R [lo, hi] is wholly above 1 + band ...;
 *    decide it: <decide> --filter '^<name>$' --rounds 2P"
 * (P = the processes per side so far); their checks stay `inconclusive`
 * with observed starting "unresolved slowdown: " and details
 * unresolved_slowdown = true, decide = the command.
 * Returns the exit code: 1 any fail, 77 all skip, 0. */
int perf_report(const char *mode, const perf_result *r, size_t n, int reruns);

/* The start of the command that decides an unresolved slowdown (e.g.
 * "bg-perf ab --base-exe B --head-exe H"); copied; NULL: a generic one. */
void perf_report_set_decide(const char *cmd_prefix);

/* The `skip` of a host without a baseline: names the host key and the
 * command that records one.  Returns 77. */
int perf_report_no_baseline(const char *host_key, const char *path);

/* The `fail` check "perf.baseline.load" of a baseline file that exists but
 * cannot be used (corrupt, another host, schema or metric): observed is the
 * error line already printed (bg_last_error).  Returns bg_exit_code(st). */
int perf_report_bad_baseline(const char *path, bg_status st);

/* One `skip` check with the reason (e.g. a missing tool).  Returns 77. */
int perf_report_skip(const char *name, const char *expected, const char *why);

/* calibrate: A/A results -> proposed per-benchmark bands as a budgets
 * fragment on stdout: band = max(1%, 2 |A/A median ratio - 1| + MAD/median),
 * rounded up to 0.5%: twice the systematic A/A shift plus one sample's noise
 * (the interval itself already carries the noise of the medians).  Returns 0
 * or an error exit code. */
int perf_calibrate_print(const perf_set *a1, const perf_set *a2, const cJSON *budgets);

#endif
