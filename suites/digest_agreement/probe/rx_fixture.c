#include "rx_fixture.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_hex.h"
#include "buildgate/bg_json.h"
#include "rx_flags.h"

const char *rx_algorithm(int flags)
{
#if defined(BG_RANDOMX_HAS_V2)
    if (flags & (int)RANDOMX_FLAG_V2)
        return "randomx-v2";
#endif
    (void)flags;
    return "randomx-v1";
}

const char *rx_kat_rel(const char *algorithm)
{
    return strcmp(algorithm, "randomx-v2") == 0 ? "randomx/kat-v2.json" : "randomx/kat.json";
}

static bg_status load_schema(const char *path, cJSON **doc)
{
    bg_status st = bg_json_load(path, "fixture", doc);
    if (st) /* missing, unreadable or malformed: all mean "no usable fixture" */
        return st == BG_E_NOMEM ? st : BG_E_FIXTURE;
    double schema = bg_json_num(*doc, "schema", -1);
    if (schema != RX_FIXTURE_SCHEMA) {
        cJSON_Delete(*doc);
        *doc = NULL;
        return bg_fail(BG_E_FIXTURE, "fixture", "%s: schema %g, this buildgate reads schema %d",
                       path, schema, RX_FIXTURE_SCHEMA);
    }
    return BG_OK;
}

static bg_status hex32(const char *path, const char *what, const char *hex, uint8_t out[32])
{
    size_t n = 0;
    if (!hex || strlen(hex) != 64 || bg_hex_decode(hex, out, 32, &n) != BG_OK)
        return bg_fail(BG_E_FIXTURE, "fixture", "%s: %s: \"%s\" is not 64 hex digits", path, what,
                       hex ? hex : "(missing)");
    return BG_OK;
}

static bg_status parse_vector(const char *path, const cJSON *v, rx_kat *k)
{
    const char *id = bg_json_str(v, "id"), *key = bg_json_str(v, "key");
    const char *in = bg_json_str(v, "input"), *in_hex = bg_json_str(v, "input_hex");
    if (!id || !key || (!in && !in_hex) || strlen(id) >= sizeof k->id ||
        strlen(key) >= sizeof k->key)
        return bg_fail(BG_E_FIXTURE, "fixture", "%s: vector %s lacks id, key or input", path,
                       id ? id : "?");
    snprintf(k->id, sizeof k->id, "%s", id);
    snprintf(k->key, sizeof k->key, "%s", key);
    k->key_len = strlen(key);
    if (in) {
        if (strlen(in) > sizeof k->input)
            return bg_fail(BG_E_FIXTURE, "fixture", "%s: vector %s: input too long", path, id);
        k->input_len = strlen(in);
        memcpy(k->input, in, k->input_len);
    } else if (bg_hex_decode(in_hex, k->input, sizeof k->input, &k->input_len) != BG_OK) {
        return bg_fail(BG_E_FIXTURE, "fixture", "%s: vector %s: bad input_hex", path, id);
    }
    char what[64];
    snprintf(what, sizeof what, "vector %s hash", id);
    bg_status st = hex32(path, what, bg_json_str(v, "hash"), k->hash);
    const char *com = bg_json_str(v, "commitment");
    if (!st && com) {
        snprintf(what, sizeof what, "vector %s commitment", id);
        st = hex32(path, what, com, k->commitment);
        k->has_commitment = st == BG_OK;
    }
    return st;
}

bg_status rx_kat_load(const char *path, const char *algorithm, rx_kat_set *out)
{
    memset(out, 0, sizeof *out);
    cJSON *doc;
    bg_status st = load_schema(path, &doc);
    if (st)
        return st;
    const cJSON *v;
    cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(doc, "vectors")) {
        const char *alg = bg_json_str(v, "algorithm");
        if (!alg || strcmp(alg, algorithm))
            continue;
        if (out->nvectors == (int)(sizeof out->vectors / sizeof out->vectors[0]))
            break;
        st = parse_vector(path, v, &out->vectors[out->nvectors]);
        if (st)
            break;
        out->nvectors++;
    }
    cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(doc, "dataset_items")) {
        const char *alg = bg_json_str(v, "algorithm"), *key = bg_json_str(v, "key");
        const char *first = bg_json_str(v, "first_u64");
        if (st || !alg || strcmp(alg, algorithm))
            continue;
        if (out->nitems == (int)(sizeof out->items / sizeof out->items[0]))
            break;
        rx_dataset_kat *d = &out->items[out->nitems];
        char *end = NULL;
        uint64_t item;
        if (!key || !first || strlen(key) >= sizeof d->key || !bg_json_u64(v, "item", &item)) {
            st = bg_fail(BG_E_FIXTURE, "fixture",
                         "%s: dataset item lacks key, item (a whole number) or first_u64",
                         path);
            break;
        }
        d->first_u64 = strtoull(first, &end, 16);
        if (!end || *end) {
            st = bg_fail(BG_E_FIXTURE, "fixture", "%s: dataset item: bad first_u64 \"%s\"", path,
                         first);
            break;
        }
        snprintf(d->key, sizeof d->key, "%s", key);
        d->item = (unsigned long)item;
        out->nitems++;
    }
    /* kat-import records how many vectors each algorithm has, so a vector
     * deleted or relabelled by hand cannot silently drop out of the run. */
    double want = bg_json_num(cJSON_GetObjectItemCaseSensitive(doc, "vector_counts"), algorithm, -1);
    char have[256] = "";
    size_t hl = 0;
    cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(doc, "vectors")) {
        const char *alg = bg_json_str(v, "algorithm");
        if (alg && !strstr(have, alg) && hl < sizeof have - 40)
            hl += snprintf(have + hl, sizeof have - hl, "%s%s", hl ? ", " : "", alg);
    }
    cJSON_Delete(doc);
    if (!st && out->nvectors == 0)
        st = bg_fail(BG_E_FIXTURE, "fixture", "%s has no vectors for %s (it has: %s): a fixture "
                                              "for another RandomX version?",
                     path, algorithm, hl ? have : "none");
    else if (!st && want != out->nvectors)
        st = bg_fail(BG_E_FIXTURE, "fixture",
                     "%s: %d vectors for %s, but vector_counts says %g: a vector was removed, "
                     "added or relabelled by hand (re-import with kat-import)",
                     path, out->nvectors, algorithm, want);
    return st;
}

static int entry_matches(const cJSON *e, const char *algorithm, const char *key, uint64_t n,
                         uint64_t k)
{
    const char *a = bg_json_str(e, "algorithm"), *ky = bg_json_str(e, "key");
    uint64_t en, ek;
    return a && ky && !strcmp(a, algorithm) && !strcmp(ky, key) && bg_json_u64(e, "n", &en) &&
           en == n && bg_json_u64(e, "k", &ek) && ek == k;
}

bg_status rx_chain_fixture_find(const char *path, const char *algorithm, const char *key,
                                uint64_t n, uint64_t k, rx_chain_result *out, int *no_entry)
{
    memset(out, 0, sizeof *out);
    if (no_entry)
        *no_entry = 0;
    cJSON *doc;
    bg_status st = load_schema(path, &doc);
    if (st)
        return st;
    const cJSON *e, *hit = NULL;
    char have[512] = "";
    size_t hl = 0;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(doc, "chains")) {
        if (entry_matches(e, algorithm, key, n, k))
            hit = e;
        else if (hl < sizeof have - 80)
            hl += snprintf(have + hl, sizeof have - hl, "%s%s n=%g k=%g", hl ? "; " : "",
                           bg_json_str(e, "algorithm") ? bg_json_str(e, "algorithm") : "?",
                           bg_json_num(e, "n", -1), bg_json_num(e, "k", -1));
    }
    if (!hit) {
        cJSON_Delete(doc);
        if (no_entry)
            *no_entry = 1;
        return bg_fail(BG_E_FIXTURE, "fixture",
                       "%s has no chain for %s key \"%s\" n=%" PRIu64 " k=%" PRIu64
                       " (it has: %s); record one with bg-chain --record",
                       path, algorithm, key, n, k, hl ? have : "nothing");
    }
    out->n = n;
    out->k = k;
    st = hex32(path, "chain digest", bg_json_str(hit, "digest"), out->digest);
    const cJSON *cps = cJSON_GetObjectItemCaseSensitive(hit, "checkpoints");
    size_t want = k ? (size_t)(n / k) : 0;
    if (!st && (size_t)cJSON_GetArraySize(cps) != want)
        st = bg_fail(BG_E_FIXTURE, "fixture", "%s: chain n=%" PRIu64 ": %d checkpoints, expected %zu",
                     path, n, cJSON_GetArraySize(cps), want);
    if (!st && want) {
        out->checkpoints = calloc(want, 32);
        if (!out->checkpoints)
            st = BG_E_NOMEM;
        const cJSON *c;
        cJSON_ArrayForEach(c, cps) {
            if (st)
                break;
            st = hex32(path, "checkpoint", cJSON_IsString(c) ? c->valuestring : NULL,
                       out->checkpoints[out->ncheckpoints++]);
        }
    }
    cJSON_Delete(doc);
    if (st)
        rx_chain_free(out);
    return st;
}

bg_status rx_chain_fixture_precheck(const char *path, const char *algorithm, const char *key,
                                    uint64_t n, uint64_t k, int replace)
{
    FILE *f = fopen(path, "r");
    if (f) {
        fclose(f);
        cJSON *doc;
        bg_status st = load_schema(path, &doc);
        const cJSON *e, *chains = st ? NULL : cJSON_GetObjectItemCaseSensitive(doc, "chains");
        if (!st && !cJSON_IsArray(chains))
            st = bg_fail(BG_E_FIXTURE, "fixture",
                         "%s is not a chains fixture (no \"chains\" array; e.g. "
                         "fixtures/randomx/chains.json): not written (nothing computed)", path);
        cJSON_ArrayForEach(e, chains) {
            if (!replace && entry_matches(e, algorithm, key, n, k)) {
                st = bg_fail(BG_E_EXISTS, "fixture",
                             "%s already has the chain %s key \"%s\" n=%" PRIu64 " k=%" PRIu64
                             ": not overwritten (nothing computed); pass --replace --reason "
                             "\"...\" to replace it",
                             path, algorithm, key, n, k);
                break;
            }
        }
        cJSON_Delete(doc);
        if (st)
            return st;
        f = fopen(path, "r+");
        if (!f)
            return bg_fail(BG_E_IO, "fixture", "%s cannot be written", path);
        fclose(f);
        return BG_OK;
    }
    f = fopen(path, "a");
    if (!f)
        return bg_fail(BG_E_IO, "fixture", "%s cannot be created", path);
    fclose(f);
    remove(path);
    return BG_OK;
}

bg_status rx_chain_fixture_record(const char *path, const char *algorithm, const char *key,
                                  const rx_chain_result *r, cJSON *provenance, int replace,
                                  const char *reason)
{
    cJSON *doc = NULL;
    FILE *exists = fopen(path, "r");
    bg_status st = BG_OK;
    if (exists) {
        fclose(exists);
        st = load_schema(path, &doc);
    } else {
        doc = cJSON_CreateObject();
        cJSON_AddNumberToObject(doc, "schema", RX_FIXTURE_SCHEMA);
        cJSON_AddStringToObject(doc, "about", "Expected RandomX digest chains (docs/chain.md), "
                                              "recorded by bg-chain --record.");
        cJSON_AddArrayToObject(doc, "chains");
    }
    if (st) {
        cJSON_Delete(provenance);
        return st;
    }
    cJSON *chains = cJSON_GetObjectItemCaseSensitive(doc, "chains");
    if (!cJSON_IsArray(chains)) {
        cJSON_Delete(doc);
        cJSON_Delete(provenance);
        return bg_fail(BG_E_FIXTURE, "fixture", "%s is not a chains fixture (no \"chains\" array)", path);
    }
    char hex[65];
    bg_hex_encode(r->digest, 32, hex);
    int idx = 0, found = -1;
    cJSON *e;
    cJSON_ArrayForEach(e, chains) {
        if (entry_matches(e, algorithm, key, r->n, r->k))
            found = idx;
        idx++;
    }
    if (found >= 0 && !replace) {
        const char *old = bg_json_str(cJSON_GetArrayItem(chains, found), "digest");
        st = bg_fail(BG_E_EXISTS, "fixture",
                     "%s already has the chain n=%" PRIu64 " k=%" PRIu64 " (%s; this run %s): "
                     "not overwritten; pass --replace --reason \"...\" to replace it",
                     path, r->n, r->k, old ? old : "?", hex);
        cJSON_Delete(doc);
        cJSON_Delete(provenance);
        return st;
    }
    if (replace && (!reason || !*reason)) {
        cJSON_Delete(doc);
        cJSON_Delete(provenance);
        return bg_fail(BG_E_USAGE, "fixture", "--replace needs --reason \"...\"");
    }
    cJSON *entry = cJSON_CreateObject();
    cJSON_AddStringToObject(entry, "algorithm", algorithm);
    cJSON_AddStringToObject(entry, "key", key);
    cJSON_AddNumberToObject(entry, "n", (double)r->n);
    cJSON_AddNumberToObject(entry, "k", (double)r->k);
    cJSON_AddStringToObject(entry, "digest", hex);
    cJSON *cps = cJSON_AddArrayToObject(entry, "checkpoints");
    for (size_t i = 0; i < r->ncheckpoints; i++) {
        bg_hex_encode(r->checkpoints[i], 32, hex);
        cJSON_AddItemToArray(cps, cJSON_CreateString(hex));
    }
    if (reason && *reason)
        cJSON_AddStringToObject(provenance, "reason", reason);
    else
        cJSON_AddNullToObject(provenance, "reason");
    cJSON_AddItemToObject(entry, "provenance", provenance);
    if (found >= 0)
        cJSON_ReplaceItemInArray(chains, found, entry);
    else
        cJSON_AddItemToArray(chains, entry);
    st = bg_json_write_atomic(path, doc);
    cJSON_Delete(doc);
    return st;
}
