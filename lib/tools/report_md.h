/* report_md.h — renders results.json (as cJSON) into report.md and the
 * console summary.  Part of bg-report; see bg_report.c for the layout. */
#ifndef BG_REPORT_MD_H
#define BG_REPORT_MD_H

#include <stdio.h>

#include <cjson/cJSON.h>

#include "buildgate/bg_error.h"

/* Writes the Markdown report for doc to path (atomically replaced).
 * Fragments <suite>--*.md found in checks_dir are included in their suite's
 * section.  BG_E_IO with one error line on failure. */
bg_status bg_report_markdown(const cJSON *doc, const char *checks_dir, const char *path);

/* The names in dir ending with suffix, sorted (strcmp); *n of them.  NULL
 * (and *n = 0) when there are none or dir cannot be read.  Free with
 * bg_report_list_free. */
char **bg_report_list_dir(const char *dir, const char *suffix, int *n);
void bg_report_list_free(char **names, int n);

/* Prints the per-suite verdict table and the overall verdict to out. */
void bg_report_print_summary(const cJSON *doc, FILE *out);

#endif
