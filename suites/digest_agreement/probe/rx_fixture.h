/* rx_fixture.h — the digest suite's stored truth.
 *
 * fixtures/randomx/kat.json, kat-v2.json (imported from upstream by kat-import;
 * rx_kat_rel() names the file of each algorithm):
 *   {"schema":1,"source":str,"provenance":{...},"vector_counts":{algorithm: n},
 *    "vectors":[{"id":"1a","algorithm":"randomx-v1","key":str,
 *                "input":str | "input_hex":hex,"hash":hex64[,"commitment":hex64]}],
 *    "dataset_items":[{"algorithm","key","item":int,"first_u64":"0x..."}]}
 * fixtures/randomx/chains.json (recorded by bg-chain --record):
 *   {"schema":1,"chains":[{"algorithm","key","n","k","digest":hex64,
 *     "checkpoints":[hex64...],"provenance":{"command","variant","flags",
 *     "host","randomx","date","reason"}}]}
 * Loading validates every field; a fixture that fails validation is
 * BG_E_FIXTURE with the file and the offending entry named.
 */
#ifndef RX_FIXTURE_H
#define RX_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "buildgate/bg_error.h"
#include "rx_chain.h"

#define RX_FIXTURE_SCHEMA 1

typedef struct rx_kat {
    char id[16];
    char key[128];
    size_t key_len;
    uint8_t input[256];
    size_t input_len;
    uint8_t hash[32];
    int has_commitment;     /* randomx-v2: "commitment" present */
    uint8_t commitment[32]; /* randomx_calculate_commitment(input, hash) */
} rx_kat;

typedef struct rx_dataset_kat {
    char key[128];
    unsigned long item;
    uint64_t first_u64;
} rx_dataset_kat;

typedef struct rx_kat_set {
    rx_kat vectors[32];
    int nvectors;
    rx_dataset_kat items[16];
    int nitems;
} rx_kat_set;

/* Loads the vectors of `algorithm` ("randomx-v1") from path.  BG_E_FIXTURE
 * when the file has none for that algorithm (a fixture for another version). */
bg_status rx_kat_load(const char *path, const char *algorithm, rx_kat_set *out);

/* Expected chain for (algorithm, key, n, k) from path.  BG_E_FIXTURE when the
 * file is corrupt or has no such entry (the message lists what it has); then
 * *no_entry (when not NULL) is 1 for a sound file without the entry (record
 * one with bg-chain --record: nothing to restore), else 0. */
bg_status rx_chain_fixture_find(const char *path, const char *algorithm, const char *key,
                                uint64_t n, uint64_t k, rx_chain_result *out, int *no_entry);

/* Records r in path (created when missing).  An entry for the same
 * (algorithm, key, n, k) is replaced only with replace=1 and a reason, which
 * is stored in its provenance; otherwise BG_E_EXISTS.  provenance is taken over. */
bg_status rx_chain_fixture_record(const char *path, const char *algorithm, const char *key,
                                  const rx_chain_result *r, cJSON *provenance, int replace,
                                  const char *reason);

/* Before a long run that will --record the chain (algorithm, key, n, k) into
 * path: BG_OK when path is a readable chains fixture that can be written, or
 * can be created; BG_E_EXISTS (one line naming the entry) when it already
 * holds that chain and replace is 0; BG_E_IO / BG_E_FIXTURE otherwise. */
bg_status rx_chain_fixture_precheck(const char *path, const char *algorithm, const char *key,
                                    uint64_t n, uint64_t k, int replace);

/* "randomx-v1" or "randomx-v2" for flags. */
const char *rx_algorithm(int flags);

/* The known answers of an algorithm, relative to the fixtures root:
 * "randomx/kat.json" (randomx-v1, imported from Debian's 1.1.10 source) or
 * "randomx/kat-v2.json" (randomx-v2, imported from upstream v2.0). */
const char *rx_kat_rel(const char *algorithm);

#endif
