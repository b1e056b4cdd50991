/* bg_proposed.h — proposed known-deviation lines (docs/nan_semantics.md
 * "Runner versions"; docs/memory_order.md "Runner versions").
 *
 * When a runner deviates and no known-deviation line covers it (an unlisted
 * runner version, or a deviation no line names), the checker still fails and
 * also appends a line a maintainer can adopt to
 *   $(dirname $BG_CHECKS_FILE)/proposed-known/<suite>/<tool>.tsv
 * in the suite's known-list format; its reference column starts with
 * BG_PROPOSED_MARK, which `ci/adopt-known --approve "<reason>" <dir>` replaces
 * with who/when/why when it appends the line to the suite's known list.
 * ci/gate moves <checks>/proposed-known into the report directory.
 */
#ifndef BG_PROPOSED_H
#define BG_PROPOSED_H

#include "buildgate/bg_error.h"

#define BG_PROPOSED_MARK "proposed, not reviewed"
#define BG_PROPOSED_ADOPT "ci/adopt-known --approve \"<reason>\" <report-dir>/proposed-known"

/* Version range of a proposed line for the runner version string `version`
 * (bg_version_parse): ">=X.Y,<X.Y+1" (the minor series, as the reviewed lines
 * are scoped), or "*" when no number can be read from it. */
void bg_proposed_range(const char *version, char *out, unsigned n);

/* Observed column (the measured history, nan_known.h): the version read
 * from `version` as "X.Y.Z", or "" when no number can be read from it. */
void bg_proposed_observed(const char *version, char *out, unsigned n);

/* Reference column: "proposed, not reviewed; observed <YYYY-MM-DD> on
 * <host key> with <version>; <extra>" (tabs and newlines replaced by spaces). */
void bg_proposed_reference(const char *version, const char *extra, char *out, unsigned n);

/* Appends `line` (one TSV line, without newline) to
 * $(dirname $BG_CHECKS_FILE)/proposed-known/<suite>/<tool>.tsv under an
 * exclusive fcntl(2) lock, unless the same line is already there (reruns add
 * nothing).  path[n] receives the file relative to the checks directory,
 * "proposed-known/<suite>/<tool>.tsv" (it moves with that folder into the
 * report directory), or "" when BG_CHECKS_FILE is unset (not under bg-run:
 * nothing written, BG_OK).  BG_E_IO (one error line) when
 * the directory or file cannot be written. */
bg_status bg_proposed_append(const char *suite, const char *tool, const char *line, char *path,
                             unsigned n);

#endif
