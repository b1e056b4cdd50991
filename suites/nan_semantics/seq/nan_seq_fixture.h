/* nan_seq_fixture.h — the sequences fixture: the final state of every block
 * of the default seed range, recorded natively.
 *
 * File: fixtures/nan_semantics/sequences-x86_64.json (written by
 * `nan-seq --write-fixture --reason TEXT [--replace]`, never by hand):
 *   {"schema":1,
 *    "provenance":{"command","host":{cpu_model,os,kernel,key},"date","source","reason"},
 *    "pool":"<op,op,...: the op pool, nan_seq.h>",
 *    "avx_blocks":0|1, "first_seed":F, "count":N,
 *    "state":"<layout, nan_seq.h>",
 *    "blocks":[["<fnv64 of the state, 16 hex>","<state, NAN_SEQ_STATE_HEX hex>"],...]}
 * blocks[i] is seed F+i with every step.  The hash is checked against the
 * state on load, so a hand-edited state is refused.
 */
#ifndef NAN_SEQ_FIXTURE_H
#define NAN_SEQ_FIXTURE_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "buildgate/bg_error.h"
#include "nan_seq.h"

typedef struct nan_seq_fixture {
    char path[1024];
    char cpu_model[128], date[40];
    nan_seq_pool pool;
    char pool_text[8192];
    uint64_t first;
    int count;
    nan_seq_state *state; /* count states */
} nan_seq_fixture;

/* Loads and verifies (schema, pool names, count, every state and its hash).
 * One line "buildgate: nan-seq: fixture <path>: <why>" and BG_E_FIXTURE on
 * error (BG_E_NOMEM when memory runs out). */
bg_status nan_seq_fixture_load(const char *path, nan_seq_fixture *f);

void nan_seq_fixture_free(nan_seq_fixture *f);

/* Refuses before any run: no reason (BG_E_USAGE), or path exists and not
 * replace (BG_E_EXISTS, exit 6). One line each. */
bg_status nan_seq_fixture_precheck(const char *path, const char *reason, int replace);

/* Writes the fixture (precheck again first).  states[count] of seeds
 * first..first+count-1. */
bg_status nan_seq_fixture_write(const char *path, const char *command, const char *reason, int replace,
                                const char *pool_text, int avx_blocks, uint64_t first, int count,
                                const nan_seq_state *states);

#endif
