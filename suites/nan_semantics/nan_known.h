/* nan_known.h — known deviations: fixtures/nan_semantics/known/<file>.tsv (the
 * runner's known-deviation file in the runner registry, bg_runners.def).
 *
 * One deviation per line, tab-separated, '#' starts a comment line:
 *   runner  versions  contexts  rule  detail  reference
 *   runner    the file's name without .tsv (the tool: rows of the runner
 *             registry sharing the file tell their lines apart by versions)
 *   versions  "*" or constraints on the runner's version, e.g. ">=7.2,<7.3"
 *             (bg_version_in_range)
 *   contexts  comma-separated fnmatch(3) patterns on the context name
 *             ("*", "signal_*,sigaltstack")
 *   rule      a rule id of nan_classify.h (exact)
 *   detail    fnmatch(3) pattern on the finding's detail ("*" any, "-" none)
 *   reference upstream bug/docs URL, or "observed here <date>" when none exists
 * A deviation group that matches a line is xfail; a line that applies to the
 * runner/version/context and matches no group is xpass (remove the line).
 */
#ifndef NAN_KNOWN_H
#define NAN_KNOWN_H

#include "buildgate/bg_error.h"

typedef struct nan_known_line {
    int lineno;
    char versions[64], contexts[128], rule[48], detail[96], reference[256];
    int used;   /* set when a group matched it */
} nan_known_line;

typedef struct nan_known {
    char path[1024];
    nan_known_line *lines;
    int n;
} nan_known;

/* Reads <dir>/<file> (the runner's known-deviation file, bg_runner.known:
 * <runner>.tsv, or one shared by rows of the same tool) keeping the lines
 * that apply to runner version `version` and context `context`.  A missing file is an empty list.  A
 * malformed line: one error line "buildgate: nan-check: known deviations
 * <path>:<line>: <why>" and BG_E_FIXTURE. */
bg_status nan_known_load(const char *dir, const char *file, const char *version,
                         const char *context, nan_known *kd);

/* The first applicable line matching rule + detail, or NULL. */
nan_known_line *nan_known_match(nan_known *kd, const char *rule, const char *detail);

void nan_known_free(nan_known *kd);

#endif
