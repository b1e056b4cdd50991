/* report_fndiff.h — "Which function got slower": the per-function difference
 * of every perf check that failed or stayed inconclusive and carries
 * details.function_diff (bg-perf callgrind, suites/perf_budgets/gate/perf_cgfile.h;
 * docs/results.schema.json).  Part of bg-report.
 *
 * report.md: per such check, its top function by self change and its share
 * of the total change, then the top functions by self and by inclusive
 * change (base, head, change, share), per iteration of the benchmark.
 * report.html: the same tables and a differential flame graph, inline SVG
 * (no script, no external file): one box per frame of the folded stacks,
 * root at the bottom, width = the head's inclusive cost, colour by the sign
 * of the frame's own (self) change: red slower, blue faster, intensity by
 * its size against the largest; hover (SVG <title>) gives name, base, head.
 */
#ifndef BG_REPORT_FNDIFF_H
#define BG_REPORT_FNDIFF_H

#include <stdio.h>

#include "report_data.h"

/* Writes the Markdown section (nothing when no check has a function_diff). */
void bg_report_md_fndiff(FILE *f, const bg_report_model *m);

/* Writes the HTML section (nothing when no check has a function_diff). */
void bg_report_html_fndiff(FILE *f, const bg_report_model *m);

#endif
