/* nan_fixture.h — the golden fixture: expected records per MXCSR mode.
 *
 * File: fixtures/nan_semantics/golden-x86_64.json (written by
 * `nan-check --write-fixture --reason TEXT [--replace]`, never by hand):
 *   {"schema":1,
 *    "provenance":{"command","host":{cpu_model,os,kernel,key},"date","source","reason"},
 *    "case_table":"<fnv64 hex, nan_case_table_digest()>",
 *    "record":"<layout, nan_cases.h>",
 *    "skipped_ops":[...ops the fixture host could not run...],
 *    "modes":{"default":{"mxcsr":"0x1f80","results":{"<op>":"<records>"}},
 *             "<mode>":{"mxcsr":"0x....","base":"<mode>",
 *                      "diff":{"<op>":{"<case index>":"<record>"}}}},
 *    "records_digest":"<16 hex digits>"}
 * Every mode but "default" stores only the cases whose record differs from
 * its base mode's (nan_mode_base(): same FTZ/DAZ, round to nearest; for
 * ftz/daz/ftz_daz the default mode), since most NaN/inf cases do not depend
 * on the mode.
 * records_digest: FNV-1a 64 (nan_fnv64) over "skipped_ops" then "modes" as
 * cJSON_PrintUnformatted prints them (each with its NUL), written by
 * nan_fixture_write and verified by nan_fixture_load after every other
 * check: a record edited by hand is well formed, so only the digest tells it
 * from a CPU deviation.  A mismatch or a missing digest is one line
 * "buildgate: nan-check: fixture corrupted: <path>: ..." and BG_E_FIXTURE
 * (exit 5).
 */
#ifndef NAN_FIXTURE_H
#define NAN_FIXTURE_H

#include <cjson/cJSON.h>

#include "buildgate/bg_error.h"
#include "nan_cases.h"

typedef struct nan_fixture {
    char path[1024];
    char cpu_model[128];
    char date[40];
    int has_op[NAN_OP_MAX];             /* by op index */
    nan_rec *exp[NAN_MODE_COUNT];       /* nan_case_total() records, NULL if absent */
} nan_fixture;

/* Loads and verifies the fixture (schema, provenance, case-table digest,
 * every record's length and digits, then the records' digest).  On error prints one line
 * "buildgate: nan-check: fixture <path>: <why>" and returns BG_E_FIXTURE
 * (BG_E_NOMEM when memory runs out). */
bg_status nan_fixture_load(const char *path, nan_fixture *f);

void nan_fixture_free(nan_fixture *f);

/* What nan_fixture_write refuses without a probe run: no reason (BG_E_USAGE)
 * or an existing fixture without replace (BG_E_EXISTS); one line each.
 * nan-check calls it before running the probe. */
bg_status nan_fixture_precheck(const char *path, const char *reason, int replace);

/* Writes a fixture from a probe document (context main_thread, all modes)
 * to path.  Refuses (BG_E_EXISTS) when path exists and replace is 0;
 * reason must be non-empty (BG_E_USAGE).  One error line on failure. */
bg_status nan_fixture_write(const char *path, const cJSON *probe_doc, const char *command,
                            const char *reason, int replace);

/* The command line as the provenance records it: words joined by spaces,
 * a word with a space in single quotes; buf[n], truncated to fit. */
void nan_fixture_command(int argc, char **argv, char *buf, size_t n);

/* The "provenance" object of a fixture: command, host {cpu_model, os,
 * kernel, key}, date (UTC), source (how the truth was recorded), reason.
 * Also used by the sequences fixture (nan_seq_fixture.h).  NULL on OOM. */
cJSON *nan_fixture_provenance(const char *command, const char *reason, const char *source);

/* Decodes a probe phase's "results" object into recs[nan_case_total()]; sets
 * present[k] for each op found.  Returns the op index of the first malformed
 * string (wrong length or digit) or -1 when all are well-formed. */
int nan_results_decode(const cJSON *results, nan_rec *recs, int *present);

#endif
