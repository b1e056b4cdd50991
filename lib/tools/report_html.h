/* report_html.h — renders the report model (report_data.h) into
 * report.html: one self-contained page (inline CSS and SVG, no script, no
 * external reference of any kind), the failures first.  Part of bg-report;
 * docs/writing-a-suite.md "The report". */
#ifndef BG_REPORT_HTML_H
#define BG_REPORT_HTML_H

#include "buildgate/bg_error.h"
#include "report_data.h"

/* Writes the page for m to path (atomically replaced): verdict, failures
 * (expected vs observed, doc section, next step), what this host cannot
 * decide, changes against the base, an SVG of the perf ratios with their
 * intervals and bands, per-benchmark history from m->baseline, every matrix
 * (e.g. digest variants × checks) as a coloured table, every check folded.
 * BG_E_IO with one error line on failure. */
bg_status bg_report_html(const bg_report_model *m, const char *path);

#endif
