/* bg_check.h — recording checks: the unit every suite reports in.
 *
 * A check is one JSON object (interface, see docs/results.schema.json):
 *   {"suite": str, "name": str, "test": str, "verdict": str,
 *    "expected": any, "observed": any, "details": any}
 * Checks are appended, one per line (JSON Lines), to the file named by the
 * environment variable BG_CHECKS_FILE (set per CTest test by bg_add_test());
 * bg-report merges those files into results.json.  Each check is also printed
 * to stdout as a human-readable line, with expected vs observed on a failure.
 *
 * Verdicts (interface): pass, fail, xfail, xpass, skip, inconclusive.
 */
#ifndef BG_CHECK_H
#define BG_CHECK_H

#include <cjson/cJSON.h>

#include "buildgate/bg_error.h"

typedef enum bg_verdict {
    BG_PASS = 0,
    BG_FAIL,
    BG_XFAIL,
    BG_XPASS,
    BG_SKIP,
    BG_INCONCLUSIVE,
    BG_VERDICT_COUNT
} bg_verdict;

/* "pass", "fail", ... ; never NULL ("?" for an out-of-range value). */
const char *bg_verdict_name(bg_verdict v);

/* Parses a verdict name; BG_E_PARSE if it is not one of the six. */
bg_status bg_verdict_parse(const char *name, bg_verdict *out);

/* 1 when the verdict makes the gate fail (fail, xpass), else 0. */
int bg_verdict_is_bad(bg_verdict v);

typedef struct bg_checks bg_checks;

/* The CTest test being run: $BG_TEST_NAME (set by bg-run), or fallback when
 * it is unset or empty (a tool run by hand). */
const char *bg_test_name(const char *fallback);

/* Opens a sink for checks of one suite (e.g. "digest_agreement").  The test
 * name is taken from BG_TEST_NAME (may be unset).  Returns NULL only when
 * memory is exhausted or BG_CHECKS_FILE cannot be opened for appending (an
 * error line is printed). */
bg_checks *bg_checks_open(const char *suite);

/* Records one check.  expected/observed/details may be NULL (stored as null);
 * ownership of all three passes to this function.  Returns BG_OK, or BG_E_IO
 * when the line cannot be written. */
bg_status bg_check_emit(bg_checks *c, const char *name, bg_verdict v, cJSON *expected,
                        cJSON *observed, cJSON *details);

/* Convenience: a check whose expected/observed are strings (copied). */
bg_status bg_check_emit_str(bg_checks *c, const char *name, bg_verdict v, const char *expected,
                            const char *observed, cJSON *details);

/* Number of checks recorded so far with verdict v. */
int bg_checks_count(const bg_checks *c, bg_verdict v);

/* Closes the sink and returns the process exit code for the test:
 * 1 if any check is fail/xpass or none was recorded, 77 if every check is
 * skip, else 0.  Prints a one-line summary to stdout.  c may be NULL (-> 1). */
int bg_checks_close(bg_checks *c);

/* For stored data that cannot be used (a fixture, a baseline): records a fail
 * check `name` whose observed is the error line already printed
 * (bg_last_error), so results.json / report.md say why and not only stderr,
 * with details.action = action (the report's and JUnit's "Next:" step; NULL:
 * none, the report derives one); then closes c (as bg_checks_free) and
 * returns bg_exit_code(st). */
int bg_checks_fail_stored(bg_checks *c, const char *name, const char *expected, bg_status st,
                          const char *action);

/* Closes the sink without a summary or verdict (for wrappers like bg-run). */
void bg_checks_free(bg_checks *c);

#endif
