/* bg_fragment.h — the Markdown fragment a test adds to report.md.
 *
 * bg-report includes every file $(dirname $BG_CHECKS_FILE)/<suite>--<name>.md
 * in the suite's section (docs/writing-a-suite.md "Checks (interface)", its report hooks), e.g. a
 * phase table or a histogram.
 */
#ifndef BG_FRAGMENT_H
#define BG_FRAGMENT_H

#include <stdio.h>

/* Opens (truncates) $(dirname $BG_CHECKS_FILE)/<suite>--<name>.md for
 * writing; the caller fcloses it.  NULL when BG_CHECKS_FILE is unset or empty
 * (not under bg-run: no report to feed) or the file cannot be created (an
 * error line is printed then). */
FILE *bg_fragment_open(const char *suite, const char *name);

#endif
