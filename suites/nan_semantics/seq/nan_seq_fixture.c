/* nan_seq_fixture.c — see nan_seq_fixture.h. */
#define _POSIX_C_SOURCE 200809L
#include "nan_seq_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buildgate/bg_json.h"
#include "nan_fixture.h"

static bg_status bad(const char *path, const char *why)
{
    return bg_fail(BG_E_FIXTURE, "nan-seq", "fixture %s: %s (regenerate it: docs/nan_semantics.md, "
                   "Generated sequences)", path, why);
}

bg_status nan_seq_fixture_load(const char *path, nan_seq_fixture *f)
{
    memset(f, 0, sizeof *f);
    snprintf(f->path, sizeof f->path, "%s", path);
    cJSON *doc = NULL;
    bg_status st = bg_json_load(path, "sequences fixture", &doc);
    if (st != BG_OK)
        return st == BG_E_NOMEM ? st : BG_E_FIXTURE;
    const cJSON *prov = cJSON_GetObjectItemCaseSensitive(doc, "provenance");
    const cJSON *host = cJSON_GetObjectItemCaseSensitive(prov, "host");
    const cJSON *blocks = cJSON_GetObjectItemCaseSensitive(doc, "blocks");
    const char *pool = bg_json_str(doc, "pool"), *model = bg_json_str(host, "cpu_model");
    const char *date = bg_json_str(prov, "date");
    char badop[80], why[200];
    uint64_t first = 0;
    double count = bg_json_num(doc, "count", -1);
    if (bg_json_num(doc, "schema", 0) != 1)
        st = bad(path, "not schema 1");
    else if (!model || !date || !bg_json_str(prov, "reason"))
        st = bad(path, "\"provenance\" lacks host.cpu_model, date or reason");
    else if (!pool || strlen(pool) >= sizeof f->pool_text ||
             nan_seq_pool_parse(pool, &f->pool, badop, sizeof badop) != 0) {
        snprintf(why, sizeof why, "\"pool\" names an op nan_ops.def lacks ('%s')", pool ? badop : "");
        st = bad(path, why);
    } else if (!bg_json_u64(doc, "first_seed", &first) || count < 1 || count > 1e6 ||
               !cJSON_IsArray(blocks) || cJSON_GetArraySize(blocks) != (int)count)
        st = bad(path, "\"first_seed\", \"count\" and the number of \"blocks\" disagree");
    if (st != BG_OK) {
        cJSON_Delete(doc);
        return st;
    }
    snprintf(f->pool_text, sizeof f->pool_text, "%s", pool);
    snprintf(f->cpu_model, sizeof f->cpu_model, "%s", model);
    snprintf(f->date, sizeof f->date, "%s", date);
    f->first = first, f->count = (int)count;
    f->state = calloc((size_t)f->count, sizeof *f->state);
    if (!f->state) {
        cJSON_Delete(doc);
        return BG_E_NOMEM;
    }
    int i = 0;
    const cJSON *b;
    cJSON_ArrayForEach(b, blocks) {
        const cJSON *h = cJSON_GetArrayItem(b, 0), *s = cJSON_GetArrayItem(b, 1);
        char want[20];
        if (!cJSON_IsString(h) || !cJSON_IsString(s) || nan_seq_state_parse(s->valuestring, &f->state[i]) != 0) {
            snprintf(why, sizeof why, "block %d (seed %llu): not [hash, %d hex digits]", i,
                     (unsigned long long)(first + (uint64_t)i), NAN_SEQ_STATE_HEX);
            st = bad(path, why);
            break;
        }
        snprintf(want, sizeof want, "%016llx", (unsigned long long)nan_seq_state_hash(&f->state[i]));
        if (strcmp(want, h->valuestring) != 0) {
            snprintf(why, sizeof why, "block %d (seed %llu): hash %s does not match its state (%s)", i,
                     (unsigned long long)(first + (uint64_t)i), h->valuestring, want);
            st = bad(path, why);
            break;
        }
        i++;
    }
    cJSON_Delete(doc);
    if (st != BG_OK)
        nan_seq_fixture_free(f);
    return st;
}

void nan_seq_fixture_free(nan_seq_fixture *f)
{
    free(f->state);
    f->state = NULL;
}

bg_status nan_seq_fixture_precheck(const char *path, const char *reason, int replace)
{
    if (!reason || !*reason)
        return bg_fail(BG_E_USAGE, "nan-seq", "--write-fixture needs --reason TEXT (stored in the fixture)");
    if (!replace && access(path, F_OK) == 0)
        return bg_fail(BG_E_EXISTS, "nan-seq", "fixture %s exists: pass --replace with --reason to overwrite it",
                       path);
    return BG_OK;
}

bg_status nan_seq_fixture_write(const char *path, const char *command, const char *reason, int replace,
                                const char *pool_text, int avx_blocks, uint64_t first, int count,
                                const nan_seq_state *states)
{
    bg_status st = nan_seq_fixture_precheck(path, reason, replace);
    if (st != BG_OK)
        return st;
    cJSON *doc = cJSON_CreateObject();
    if (!doc)
        return BG_E_NOMEM;
    cJSON_AddNumberToObject(doc, "schema", 1);
    cJSON_AddItemToObject(doc, "provenance",
                          nan_fixture_provenance(command, reason, "nan-probe --sequences, run natively "
                                                                  "(runner native) on real x86-64 hardware"));
    cJSON_AddStringToObject(doc, "pool", pool_text);
    cJSON_AddNumberToObject(doc, "avx_blocks", avx_blocks);
    char num[32];
    snprintf(num, sizeof num, "%llu", (unsigned long long)first);
    cJSON_AddRawToObject(doc, "first_seed", num);
    cJSON_AddNumberToObject(doc, "count", count);
    cJSON_AddStringToObject(doc, "state", "reg xmm8..15 (16 B each), ymm0..3 (32 B each; low 16 B without "
                                          "AVX blocks), memory 128 B, MXCSR (4 B LE), rax (8 B LE): "
                                          "nan_seq.h");
    cJSON *blocks = cJSON_AddArrayToObject(doc, "blocks");
    for (int i = 0; i < count; i++) {
        char hash[20], hex[NAN_SEQ_STATE_HEX + 1];
        snprintf(hash, sizeof hash, "%016llx", (unsigned long long)nan_seq_state_hash(&states[i]));
        nan_seq_state_hex(&states[i], hex);
        cJSON *b = cJSON_CreateArray();
        cJSON_AddItemToArray(b, cJSON_CreateString(hash));
        cJSON_AddItemToArray(b, cJSON_CreateString(hex));
        cJSON_AddItemToArray(blocks, b);
    }
    st = bg_json_write_atomic(path, doc);
    cJSON_Delete(doc);
    return st;
}
