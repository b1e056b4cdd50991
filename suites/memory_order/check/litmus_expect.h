/* litmus_expect.h — expected verdicts from fixtures/memory_order/expectations.json.
 *
 * Fixture shape (documented in docs/memory_order.md):
 *   {"schema":1, "provenance":{...}, "models":{"<model>": "<source>"},
 *    "contexts":{"<arch>.<access>": "<model>"},          e.g. "arm64.tso": "x86-tso"
 *    "controls":{"<arch>": {"test","model","why"}},       the power control per arch
 *    "known_deviations":[...]                             (see below)
 *    "tests":{"<test>": {"exists": "<outcome key>", "<model>": "allowed"|"forbidden",
 *                        "source": "..."}}}
 * Loading validates every catalogue test against the SC enumeration: the
 * exists outcome must be a key of the test, unreachable under SC, and "sc"
 * must say forbidden.  A fixture that fails is BG_E_FIXTURE (one line). */
#ifndef BG_LITMUS_EXPECT_H
#define BG_LITMUS_EXPECT_H

#include <cjson/cJSON.h>

#include "buildgate/bg_error.h"
#include "litmus_catalog.h"

typedef struct bg_litmus_expect {
    const bg_litmus_test *test;
    unsigned exists;          /* outcome index of the relaxed outcome */
    int allowed;              /* 1 when the context's model allows it */
    const char *model;        /* "x86-tso", "armv8", "sc" */
    const char *source;       /* citation for the test */
    const char *control_test; /* the arch's power control */
    const char *control_model;
    const char *control_why;
} bg_litmus_expect;

/* Loads and validates <fixtures_dir>/memory_order/expectations.json. */
bg_status bg_litmus_expect_load(const char *fixtures_dir, cJSON **doc);

/* Expectation of test under arch ("x86_64"/"arm64") and access model
 * ("plain"/"tso"/"sc").  Strings point into doc. */
bg_status bg_litmus_expect_get(const cJSON *doc, const char *test, const char *arch,
                               const char *access, bg_litmus_expect *out);

/* Known deviation (fixture "known_deviations": [{"runner", "versions",
 * "model", "rate_per_million": {"<test>": rate}, "why", "reference"}]) for
 * this runner (the tool whose list applies: bg_runner_known_tool), runner
 * version string, access model and test: 1 and *rate_pm (the recorded rate,
 * 0 when unknown) and *why set, else 0.  "versions" is a range of
 * bg_version_in_range ("*" or ">=10.0,<10.1"); an entry without it applies to
 * every version.  Mutant access names never match. */
int bg_litmus_expect_deviation(const cJSON *doc, const char *runner, const char *version,
                               const char *access, const char *test, double *rate_pm,
                               const char **why);

/* Outcome index of a key such as "0:r0=0; 1:r0=0;", or -1. */
int bg_litmus_outcome_parse(const bg_litmus_test *t, const char *key);

#endif
