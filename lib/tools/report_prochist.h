/* report_prochist.h — "Between processes": a histogram of the per-process
 * medians of every time A/B check that carries them (details.
 * process_medians_base / process_medians_head, written by bg-perf ab:
 * suites/perf_budgets/gate/perf_report.c; docs/results.schema.json).  Part of
 * bg-report.
 *
 * Why: a time judge is as wide as the spread between processes of one
 * binary; two separated clusters (docs/performance.md "Why light-mode
 * processes were bimodal") widen every interval, and a reader of a wide or
 * inconclusive verdict should see that at a glance.
 *
 * report.html only: per check with >= PROCHIST_MIN processes on each side, one
 * inline SVG (no script, no external file), base bars above the axis and head
 * bars below, the same bins for both (12 equal bins from the smaller minimum
 * to the larger maximum, in the benchmark's metric), each side's median as a
 * tick; hover (SVG <title>) gives the bin's range and counts.  Nothing when no
 * check qualifies.
 */
#ifndef BG_REPORT_PROCHIST_H
#define BG_REPORT_PROCHIST_H

#include <stdio.h>

#include "report_data.h"

#define PROCHIST_MIN 5 /* processes per side below which no histogram is drawn */

void bg_report_html_prochist(FILE *f, const bg_report_model *m);

#endif
