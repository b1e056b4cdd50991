/* report_esc.h — escaping text for report.md (GitHub-flavoured Markdown,
 * Mermaid) and report.html, and writing either atomically.  Part of
 * bg-report; shared by report_md.c and report_html.c. */
#ifndef BG_REPORT_ESC_H
#define BG_REPORT_ESC_H

#include <stddef.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "buildgate/bg_error.h"

/* Writes s as Markdown text safe inside a table cell: the characters that
 * start Markdown or HTML syntax (\ ` * _ [ ] < > | # ~ &) are escaped,
 * newlines become spaces; at most max bytes, then "…" (never cutting a
 * UTF-8 sequence).  NULL writes "?". */
void bg_md_text(FILE *f, const char *s, size_t max);

/* Writes s as a Markdown code span safe inside a table cell: the fence is
 * one backtick longer than the longest run of backticks in s, '|' is
 * escaped, newlines become spaces, truncated like bg_md_text. */
void bg_md_code(FILE *f, const char *s, size_t max);

/* Writes s as a fenced Markdown code block, each line (and both fences)
 * after indent (e.g. "   " inside a list entry): the fence is at least three
 * backticks and longer than any run in s; line breaks kept, carriage returns
 * dropped; truncated like bg_md_text. */
void bg_md_code_block(FILE *f, const char *s, size_t max, const char *indent);

/* Writes s for a Mermaid quoted string: '"' becomes '\'', newlines spaces,
 * at most max bytes. */
void bg_mermaid_str(FILE *f, const char *s, size_t max);

/* Writes s HTML-escaped (& < > " '), at most max bytes then "…". */
void bg_html_text(FILE *f, const char *s, size_t max);
/* As bg_html_text, with a <wbr> after each '.', '_', '/', '+' and ',' that is
 * not between two digits: a table header or cell then breaks between the parts
 * of a name (after_handler, qemu-x86_64.plain) when it must, never inside a word
 * or a number such as 1.0M (issue 25 item 5). */
void bg_html_text_wbr(FILE *f, const char *s, size_t max);

/* Writes s HTML-escaped with its Markdown code spans (`…`) as <code>…</code>
 * (the next-step sentences of report_data.c carry commands that way). */
void bg_html_code_spans(FILE *f, const char *s);

/* A JSON value as one line: strings bare, others printed unformatted
 * (caller frees; never NULL unless out of memory). */
char *bg_json_line(const cJSON *v);

/* Length of at most max bytes of s, backed off to a UTF-8 boundary. */
size_t bg_utf8_cut(const char *s, size_t max);

/* Opens a temporary file beside path (its name into tmp[n]) for an atomic
 * write; NULL with one error line when it cannot be created. */
FILE *bg_report_create(const char *path, char *tmp, size_t n);

/* Closes f and renames tmp over path; BG_E_IO with one error line (and tmp
 * removed) when writing, closing or renaming failed. */
bg_status bg_report_commit(FILE *f, const char *tmp, const char *path);

#endif
