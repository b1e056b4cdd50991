/* rx_chain.h — the dependent digest chain (docs/chain.md, docs/architecture.md "Interfaces").
 *
 * message i (68 bytes) = ASCII "buildgate-chain1" (16) || 12 zero bytes
 *                        || uint64 i little-endian (8) || digest i-1 (32; zero for i = 0)
 * digest i = RandomX(key, message i); the chain's digest is digest N-1;
 * checkpoint k (k = 1 .. N/K) is digest k*K-1.
 */
#ifndef RX_CHAIN_H
#define RX_CHAIN_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>
#include <randomx.h>

#include "buildgate/bg_error.h"

#define RX_CHAIN_MSG_LEN 68
/* Programs generated, compiled and run per hash: RANDOMX_PROGRAM_COUNT in
 * RandomX's src/configuration.h (doc/specs.md 1.2: 8), which the installed
 * library does not ship. */
#define RX_PROGRAMS_PER_HASH 8
#define RX_CHAIN_DEFAULT_KEY "relay-jit-profile-fixed-key-v1"

typedef struct rx_chain_result {
    uint64_t n, k;
    uint8_t digest[32];
    uint8_t (*checkpoints)[32]; /* n / k entries (0 when k == 0); owned */
    size_t ncheckpoints;
    double seconds;             /* hashing only, monotonic clock */
} rx_chain_result;

/* Builds message i from the previous digest (NULL for i = 0). */
void rx_chain_message(uint64_t i, const uint8_t prev[32], uint8_t msg[RX_CHAIN_MSG_LEN]);

/* Runs n >= 1 hashes on vm.  k = 0 records no checkpoints.  progress, when
 * non-NULL, is called every ~1 s with (hashes done, n).  BG_E_USAGE for
 * n == 0, BG_E_NOMEM when checkpoints cannot be stored. */
bg_status rx_chain_run(randomx_vm *vm, uint64_t n, uint64_t k,
                       void (*progress)(uint64_t done, uint64_t n), rx_chain_result *out);

void rx_chain_free(rx_chain_result *r);

/* Adds the chain to the JSON object j: "key" (key_text when non-NULL) or
 * "key_hex" (the key_len bytes of key, hex), "n", "k", "digest" (hex) and
 * "checkpoints" (array of hex digests, checkpoint 1 first).  The shape of
 * bg-chain's output and of the digest.*.chain check's details (compared
 * across hosts by bg-report --merge). */
void rx_chain_add_json(cJSON *j, const char *key_text, const uint8_t *key, size_t key_len,
                       const rx_chain_result *r);

#endif
