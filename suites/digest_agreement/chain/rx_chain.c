#include "rx_chain.h"

#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_guard.h"
#include "buildgate/bg_hex.h"
#include "rx_session.h"

void rx_chain_message(uint64_t i, const uint8_t prev[32], uint8_t msg[RX_CHAIN_MSG_LEN])
{
    memcpy(msg, "buildgate-chain1", 16);
    memset(msg + 16, 0, 12);
    for (int b = 0; b < 8; b++)
        msg[28 + b] = (uint8_t)(i >> (8 * b));
    if (prev)
        memcpy(msg + 36, prev, 32);
    else
        memset(msg + 36, 0, 32);
}

bg_status rx_chain_run(randomx_vm *vm, uint64_t n, uint64_t k,
                       void (*progress)(uint64_t done, uint64_t n), rx_chain_result *out)
{
    memset(out, 0, sizeof *out);
    if (n == 0)
        return bg_fail(BG_E_USAGE, "chain", "length N must be at least 1");
    out->n = n;
    out->k = k;
    size_t ncp = k ? (size_t)(n / k) : 0;
    if (ncp) {
        out->checkpoints = calloc(ncp, 32);
        if (!out->checkpoints)
            return bg_fail(BG_E_NOMEM, "chain", "cannot store %zu checkpoints", ncp);
    }
    uint8_t msg[RX_CHAIN_MSG_LEN], digest[32];
    double t0 = rx_now(), next_report = t0 + 1.0;
    bg_guard_region_begin("RandomX", "randomx_calculate_hash"); /* abort/crash: exit 7 */
    for (uint64_t i = 0; i < n; i++) {
        rx_chain_message(i, i ? digest : NULL, msg);
        randomx_calculate_hash(vm, msg, sizeof msg, digest);
        if (k && (i + 1) % k == 0 && out->ncheckpoints < ncp)
            memcpy(out->checkpoints[out->ncheckpoints++], digest, 32);
        if (progress && (i & 15) == 15) {
            double now = rx_now();
            if (now >= next_report) {
                progress(i + 1, n);
                next_report = now + 1.0;
            }
        }
    }
    bg_guard_region_end();
    out->seconds = rx_now() - t0;
    memcpy(out->digest, digest, 32);
    return BG_OK;
}

void rx_chain_free(rx_chain_result *r)
{
    free(r->checkpoints);
    r->checkpoints = NULL;
    r->ncheckpoints = 0;
}

void rx_chain_add_json(cJSON *j, const char *key_text, const uint8_t *key, size_t key_len,
                       const rx_chain_result *r)
{
    char hex[2 * 256 + 1];
    if (key_text) {
        cJSON_AddStringToObject(j, "key", key_text);
    } else {
        bg_hex_encode(key, key_len < 256 ? key_len : 256, hex);
        cJSON_AddStringToObject(j, "key_hex", hex);
    }
    cJSON_AddNumberToObject(j, "n", (double)r->n);
    cJSON_AddNumberToObject(j, "k", (double)r->k);
    bg_hex_encode(r->digest, 32, hex);
    cJSON_AddStringToObject(j, "digest", hex);
    cJSON *cps = cJSON_AddArrayToObject(j, "checkpoints");
    for (size_t i = 0; i < r->ncheckpoints; i++) {
        bg_hex_encode(r->checkpoints[i], 32, hex);
        cJSON_AddItemToArray(cps, cJSON_CreateString(hex));
    }
}
