/* nan_mutant.c — see nan_mutant.h. */
#include "nan_mutant.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_error.h"
#include "buildgate/bg_json.h"
#include "nan_cases.h"

/* d: a record's destination as one 256-bit value (d, then u: NAN_YOP ops'
 * elements run on into bits 255:128); nan_elem / nan_elem_set. */
static uint64_t get_lane(const uint64_t d[4], int bits, int l) { return nan_elem(d, bits, l); }
static void set_lane(uint64_t d[4], int bits, int l, uint64_t v) { nan_elem_set(d, bits, l, v); }

static int is_nan(int bits, uint64_t x)
{
    uint64_t e = bits == 64 ? 0x7ff0000000000000ull : 0x7f800000u;
    uint64_t f = bits == 64 ? 0x000fffffffffffffull : 0x007fffffu;
    return (x & e) == e && (x & f);
}

static int is_sub(int bits, uint64_t x)
{
    uint64_t e = bits == 64 ? 0x7ff0000000000000ull : 0x7f800000u;
    uint64_t f = bits == 64 ? 0x000fffffffffffffull : 0x007fffffu;
    return (x & e) == 0 && (x & f);
}

static uint64_t quiet_bit(int bits) { return bits == 64 ? 0x0008000000000000ull : 0x00400000u; }

static int src_bits(nan_kind k)
{
    switch (k) {
    case K_BIN_S64: case K_BIN_P64: case K_UN_S64: case K_UN_P64: case K_CVT2I_64: case K_FMA_P64:
    case K_BIN_P64Y: case K_UN_P64Y: case K_FMA_P64Y:
        return 64;
    default:
        return nan_kind_f16_source(k) ? 16 : 32;
    }
}

static void mutate_dst(const char *kind, int k, int i, int daz, uint64_t d[4]);

/* Mutates record r of case i of op k in place; daz: the phase ran with DAZ. */
static void mutate(const char *kind, int k, int i, int daz, nan_rec *r)
{
    uint64_t d[4] = {r->d[0], r->d[1], r->u[0], r->u[1]};
    mutate_dst(kind, k, i, daz, d);
    r->d[0] = d[0], r->d[1] = d[1], r->u[0] = d[2], r->u[1] = d[3];
}

static void mutate_dst(const char *kind, int k, int i, int daz, uint64_t d[4])
{
    const nan_op *op = &nan_ops[k];
    if (op->dst != D_F32 && op->dst != D_F64)
        return;
    int bits = op->dst == D_F64 ? 64 : 32;
    nan_case c;
    nan_case_get(k, i, &c);
    if (strncmp(kind, "value:", 6) == 0) {
        uint64_t v = get_lane(d, bits, 0), e = bits == 64 ? 0x7ff0000000000000ull : 0x7f800000u;
        if (strcmp(op->name, kind + 6) == 0 && (v & e) != 0 && (v & e) != e)
            set_lane(d, bits, 0, v ^ 0x400);
        return;
    }
    if (nan_kind_int_source(op->kind) || src_bits(op->kind) != bits)
        return;
    int minmax = strncmp(op->name, "min", 3) == 0 || strncmp(op->name, "max", 3) == 0;
    for (int l = 0; l < op->lanes; l++) {
        uint64_t in[NAN_MAX_IN], o = get_lane(d, bits, l);
        int n = 0;
        nan_case_inputs(k, &c, l, in, &n);
        if (strcmp(kind, "snan-unquieted") == 0 && !minmax) { /* MIN/MAX never quiet */
            for (int j = 0; j < n; j++)
                if (is_nan(bits, in[j]) && !(in[j] & quiet_bit(bits)) && o == (in[j] | quiet_bit(bits))) {
                    set_lane(d, bits, l, in[j]);
                    break;
                }
        } else if (strcmp(kind, "minmax-number") == 0 && minmax && n == 2 && is_nan(bits, in[1]) &&
                   !is_nan(bits, in[0])) {
            /* x86 returns the second operand, the NaN; a minNum returns the
               number, as DAZ makes it (a subnormal is read as a signed 0) */
            uint64_t sign = bits == 64 ? 0x8000000000000000ull : 0x80000000u;
            set_lane(d, bits, l, daz && is_sub(bits, in[0]) ? in[0] & sign : in[0]);
        }
    }
}

static const cJSON *phase_named(const cJSON *phases, const char *name)
{
    const cJSON *ph;
    cJSON_ArrayForEach(ph, phases) {
        const char *p = bg_json_str(ph, "phase");
        if (p && strcmp(p, name) == 0)
            return ph;
    }
    return NULL;
}

/* Every record of every phase through mutate(). */
static int mutate_phases(cJSON *doc, const char *kind)
{
    cJSON *ph;
    cJSON_ArrayForEach(ph, cJSON_GetObjectItemCaseSensitive(doc, "phases")) {
        cJSON *res = cJSON_GetObjectItemCaseSensitive(ph, "results"), *op;
        const char *mx = bg_json_str(ph, "mxcsr");
        int daz = mx && (strtoul(mx, NULL, 16) & NAN_MXCSR_DAZ) != 0;
        cJSON_ArrayForEach(op, res) {
            int k = nan_op_find(op->string);
            if (k < 0 || !cJSON_IsString(op) ||
                strlen(op->valuestring) != (size_t)nan_case_count(k) * (size_t)nan_rec_hex(k))
                continue;
            char *s = op->valuestring;
            size_t len = (size_t)nan_rec_hex(k);
            for (int i = 0; i < nan_case_count(k); i++) {
                nan_rec r;
                if (nan_rec_decode(k, s + (size_t)i * len, &r) != 0)
                    return -1;
                mutate(kind, k, i, daz, &r);
                nan_rec_encode(k, &r, s + (size_t)i * len);
            }
        }
    }
    return 0;
}

int nan_mutant_main(const char *kind)
{
    if (strcmp(kind, "snan-unquieted") != 0 && strcmp(kind, "minmax-number") != 0 &&
        strcmp(kind, "daz-ignored") != 0 && strcmp(kind, "none") != 0 &&
        !(strncmp(kind, "value:", 6) == 0 && nan_op_find(kind + 6) >= 0)) {
        bg_errorf("nan-selftest", "--mutate: unknown kind '%s' (snan-unquieted, minmax-number, "
                  "daz-ignored, value:OP, none)", kind);
        return BG_EXIT_USAGE;
    }
    size_t cap = 1 << 20, len = 0, got;
    char *buf = malloc(cap);
    while (buf && (got = fread(buf + len, 1, cap - len - 1, stdin)) > 0) {
        len += got;
        if (len + 1 == cap) {
            char *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                buf = NULL;
            }
            buf = nb;
        }
    }
    cJSON *doc = buf ? cJSON_ParseWithLength(buf, len) : NULL;
    free(buf);
    if (!doc) {
        bg_errorf("nan-selftest", "--mutate: stdin is not a probe document");
        return BG_EXIT_PARSE;
    }
    int rc = 0;
    if (strcmp(kind, "daz-ignored") == 0) {
        cJSON *phases = cJSON_GetObjectItemCaseSensitive(doc, "phases");
        cJSON *daz = (cJSON *)phase_named(phases, "daz");
        const cJSON *def = phase_named(phases, "default");
        if (daz && def)
            cJSON_ReplaceItemInObjectCaseSensitive(
                daz, "results", cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(def, "results"), 1));
    } else if (strcmp(kind, "none") != 0) {
        rc = mutate_phases(doc, kind);
    }
    char *out = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    if (rc != 0 || !out) {
        free(out);
        bg_errorf("nan-selftest", "--mutate: malformed records in the probe document");
        return BG_EXIT_PARSE;
    }
    puts(out);
    free(out);
    return 0;
}
