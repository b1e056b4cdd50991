/* bg_known.h — the one reader of known-deviation lists
 * (docs/architecture.md "One place per concept"): the nan suite's
 * fixtures/nan_semantics/known/<tool>.tsv (nan_known.h) and the digest suite's
 * fixtures/randomx/known/<tool>.tsv (runner_known.h) are read by
 * bg_known_read; each suite says only what its own columns mean.
 *
 * File rules (every list):
 *   - text: a line holding a NUL byte is refused; "\r\n" ends a line too;
 *   - a line that is empty or starts with '#' is a comment;
 *   - every other line is tab-separated columns
 *       runner versions <the suite's columns...> reference observed
 *     runner     the file's tool: its name without the extension; a tool
 *                whose lines some registry row reads (bg_runner_known_tool;
 *                a list no runner reads is refused: none of its lines could
 *                ever match)
 *     versions   a range (bg_version_range_valid: "*", ">=7.2,<7.3", ...)
 *     reference  why it is known (an upstream report, or "observed here
 *                <date>"): not empty
 *     observed   the runner versions the line was measured on, comma-separated
 *                ("7.2.22,10.0.13"), each inside the line's range; a format
 *                may let a line leave it out (then it is "")
 *   - a column longer than the format's maximum is refused, never cut;
 *   - two lines whose columns before the reference are all equal are
 *     refused: one of them can never be the line that matches.
 * Errors: exactly one line
 *     buildgate: <tool>: <file>:<line>: <why>
 * (<tool> as bg_error_set_tool named it) and BG_E_FIXTURE; the file itself
 * unreadable: "buildgate: <tool>: <file>: <strerror>" and BG_E_FIXTURE; out
 * of memory: BG_E_NOMEM.
 */
#ifndef BG_KNOWN_H
#define BG_KNOWN_H

#include <stddef.h>

#include "buildgate/bg_error.h"

#define BG_KNOWN_MAX_COLUMNS 12

typedef struct bg_known_format {
    /* columns of a full line: runner, versions, the suite's, reference, observed */
    int columns;
    /* 1: a line may end before the observed column (it is then "") */
    int observed_optional;
    /* the <why> of a line with another number of columns (names the columns) */
    const char *shape;
    /* every column's name (error lines: "<name> column longer than ...",
       "duplicate of line N (same <names before the reference>)") */
    const char *const *names;
    /* the longest each column may be, its NUL included (0: no limit) */
    const size_t *max;
    /* where bg_known_fields copies each column: the offset of a char[max[c]]
       field in the suite's line struct, or BG_KNOWN_NO_FIELD */
    const size_t *field;
    /* checks the suite's columns col[2 .. columns-3] of a line whose runner,
       versions and reference are valid: NULL when they are fine, else the
       <why> (a constant, or written into why[n]) */
    const char *(*check)(void *ctx, char *const *col, char *why, size_t n);
    /* receives each valid line in order (col[columns-1]: observed, "" when
       absent); a status other than BG_OK stops the reading and is returned */
    bg_status (*row)(void *ctx, char *const *col, int lineno);
    void *ctx; /* passed to check and row */
} bg_known_format;

#define BG_KNOWN_NO_FIELD ((size_t)-1)

/* Copies every column of a valid line (row's col) into its field of the
 * suite's line struct at line (fmt->field, fmt->max). */
void bg_known_fields(void *line, char *const *col, const bg_known_format *fmt);

/* Reads the list at path by fmt's rules (above).  missing_ok: a file that
 * does not exist is an empty list (BG_OK, no row); otherwise it is an error. */
bg_status bg_known_read(const char *path, int missing_ok, const bg_known_format *fmt);

/* 1 when word is one of the comma-separated items of list (exact). */
int bg_known_in_list(const char *list, const char *word);

/* 1 when an item of the comma-separated list appears twice (a list column
 * that names something twice was not written by the suite's tools), the
 * first such item copied into item[n]; 0 otherwise. */
int bg_known_repeats(const char *list, char *item, size_t n);

#endif
