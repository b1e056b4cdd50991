/* litmus_expect.h — expected verdicts from fixtures/memory_order/expectations.json.
 *
 * Fixture shape (documented in docs/memory_order.md):
 *   {"schema":2, "provenance":{...}, "models":{"<model>": "<source>"},
 *    "model_of":{"<arch>.<access>": "<model>"},          e.g. "arm64.tso": "x86-tso"
 *    "controls":{"<arch>": {"test","access","why"}},      the power control per arch
 *    "known_deviations":[...]                             (see below)
 *    "tests":{"<test>": {"exists": "<outcome key>", "<model>": "allowed"|"forbidden",
 *                        "source": "..."}}}
 * Loading validates every catalogue test against the SC enumeration: the
 * exists outcome must be a key of the test, unreachable under SC, and "sc"
 * must say forbidden; and against the x86-TSO enumeration
 * (litmus_expect_check_tso); "schema" must be 2.
 *
 * Vocabulary (one word per idea): an *access* is how a thread body reads and
 * writes (plain, tso, sc: litmus_access.h); a *model* is the memory model a
 * run must obey (x86-tso, armv8, sc); "<arch>.<access>" names the pair whose
 * model "model_of" gives.  A fixture that fails is BG_E_FIXTURE (one line). */
#ifndef LITMUS_EXPECT_H
#define LITMUS_EXPECT_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "buildgate/bg_error.h"
#include "litmus_catalog.h"

typedef struct litmus_expect {
    const litmus_test *test;
    unsigned exists;          /* outcome index of the relaxed outcome */
    int allowed;              /* 1 when the context's model allows it */
    const char *model;        /* "x86-tso", "armv8", "sc" */
    const char *source;       /* citation for the test */
    const char *control_test; /* the arch's power control */
    const char *control_access; /* the access the power control runs with */
    const char *control_why;
} litmus_expect;

/* Loads and validates <fixtures_dir>/memory_order/expectations.json. */
bg_status litmus_expect_load(const char *fixtures_dir, cJSON **doc);

/* The x86-tso and armv8 verdicts of test t ("allowed"/"forbidden", as the
 * fixture gives them; NULL when missing) against the x86-TSO enumerator
 * (litmus_tso.h), for exists outcome index exists (< litmus_outcome_count(t)):
 *   - x86-tso must say "allowed" iff the enumerator reaches exists (a wrong
 *     "forbidden" is shown one execution reaching it);
 *   - armv8 must say "allowed" when x86-TSO reaches exists (Armv8 allows
 *     every relaxed outcome x86-TSO allows);
 *   - every other outcome x86-TSO reaches must be SC-reachable (the forbidden
 *     check allows SC outcomes plus exists only);
 *   - an op kind the enumerator cannot model is refused.
 * BG_OK, or BG_E_FIXTURE with one line "<where>: test <name>: ...". */
bg_status litmus_expect_check_tso(const litmus_test *t, unsigned exists, const char *tso,
                                  const char *armv8, const char *where);

/* Expectation of test under arch ("x86_64"/"arm64") and access
 * ("plain"/"tso"/"sc").  Strings point into doc, a document
 * litmus_expect_load returned: its x86-tso column equals the x86-TSO
 * enumerator's verdict (checked there, once per load). */
bg_status litmus_expect_get(const cJSON *doc, const char *test, const char *arch,
                            const char *access, litmus_expect *out);

/* Known deviation (fixture "known_deviations": [{"runner", "versions",
 * "access", "rate_per_million": {"<test>": rate}, "why", "reference"}]) for
 * this runner (the tool whose list applies: bg_runner_known_tool), runner
 * version string, access and test: 1 and *rate_pm (the recorded rate,
 * 0 when unknown) and *why set, else 0.  "versions" is a range of
 * bg_version_in_range ("*" or ">=10.0,<10.1"); an entry without it applies to
 * every version.  Mutant access names never match.  An entry's "observed"
 * (["7.2.22"]) lists the versions it was measured on.  When no entry of the
 * runner has a range holding version and no "observed" names it, the nearest
 * measured versions lo < version < hi (over the runner's entries) bracket it:
 * when an entry observed at lo and one observed at hi both list this
 * access/test, 1 with the smaller rate and bracket[bracket_n] = "<version> is
 * between measured <lo> and <hi>; not measured" (an inferred deviation: the
 * caller makes a run without it a pass note, not an xpass); else "" there. */
int litmus_expect_deviation(const cJSON *doc, const char *runner, const char *version,
                            const char *access, const char *test, double *rate_pm,
                            const char **why, char *bracket, size_t bracket_n);

/* Outcome index of a key such as "0:r0=0; 1:r0=0;", or -1. */
int litmus_outcome_parse(const litmus_test *t, const char *key);

#endif
