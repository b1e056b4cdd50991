/* report_md.h — renders the report model (report_data.h) into report.md and
 * the console summary.  Part of bg-report; see bg_report.c for the layout
 * and docs/writing-a-suite.md "The report" for what the report contains. */
#ifndef BG_REPORT_MD_H
#define BG_REPORT_MD_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "buildgate/bg_error.h"
#include "report_data.h"

/* Writes the Markdown report of m to path (atomically replaced): verdict,
 * failures, what this host cannot decide, changes against the base, perf
 * ratios, one compact table per suite, then everything else inside
 * <details>.  Fragments <suite>--*.md found in checks_dir are included in
 * their suite's <details>.  BG_E_IO with one error line on failure. */
bg_status bg_report_markdown(const bg_report_model *m, const char *checks_dir, const char *path);

/* The names in dir ending with suffix, sorted (strcmp); *n of them.  NULL
 * (and *n = 0) when there are none or dir cannot be read.  Free with
 * bg_report_list_free. */
char **bg_report_list_dir(const char *dir, const char *suffix, int *n);
void bg_report_list_free(char **names, int n);

/* Prints the per-suite verdict table and the overall verdict to out. */
void bg_report_print_summary(const cJSON *doc, FILE *out);

/* Emoji of a verdict for compact tables (pass ✅, fail ❌, xfail 🟡 known,
 * xpass ⚠️, inconclusive ❔, skip ➖); "" for NULL. */
const char *bg_report_symbol(const char *verdict);

#endif
