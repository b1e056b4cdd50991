/* report_junit.h — CTest's JUnit file made to say why a test failed.  Part
 * of bg-report. */
#ifndef BG_REPORT_JUNIT_H
#define BG_REPORT_JUNIT_H

#include <cjson/cJSON.h>

#include "buildgate/bg_error.h"

/* CTest writes <failure message=""/> for a test that exits non-zero.  Fills
 * each such empty message in the JUnit file at path with the test's first
 * fail/xpass check of checks (results.json "checks": matched on "test"):
 * "<verdict> <check>: expected <e>, observed <o>[. Next: <details.action or
 * details.fix>]" (+ how many more), at most
 * 1000 bytes, XML-escaped; a failing test with no such check gets "exit
 * status not 0, no failing check recorded: see the test's output".  Other
 * messages and the rest of the file are kept byte for byte.  Rewritten
 * atomically; a missing file is no error (BG_OK).  BG_E_IO with one line.
 * CTest names the <testsuite> "(empty)" (it takes the name from a CDash
 * BuildName this project does not set): that name, or an empty one, becomes
 * suite_name (the run's name, XML-escaped). */
bg_status bg_report_junit_messages(const char *path, const cJSON *checks, const char *suite_name);

#endif
