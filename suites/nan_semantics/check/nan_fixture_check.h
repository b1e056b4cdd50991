/* nan_fixture_check.h — one cause, one failure: the golden fixture is checked
 * once per run (test nan.fixture), and each nan.<runner>.<context> test that
 * cannot load it records one skip pointing there instead of its own fail. */
#ifndef NAN_FIXTURE_CHECK_H
#define NAN_FIXTURE_CHECK_H

#include "buildgate/bg_check.h"

/* `nan-check --check-fixture`: loads <root>/nan_semantics/golden-x86_64.json
 * and records one check named after the test (default "nan.fixture", suite
 * nan_semantics): pass with the fixture's provenance, or fail whose observed
 * is the error line and details.action what to do next (`git checkout --
 * <file>`, or the exact re-record command with probe, when probe is a built
 * nan-probe; report.md and JUnit show it as "Next:").  A
 * root with no nan_semantics/ folder is named as such (BG_FIXTURES_DIR points
 * at the wrong directory), not as a fixture to regenerate.
 * Returns the exit code: 0 pass, 5 the fixture cannot be used, 3 I/O. */
int nan_fixture_check(const char *root, const char *probe);

/* The fixture did not load in a runner/context test (the loader already
 * printed its line): records the skip "<test>.fixture" ("fixture unreadable,
 * see nan.fixture: <error>"), closes c, returns 77. */
int nan_fixture_skip(bg_checks *c, const char *test);

#endif
