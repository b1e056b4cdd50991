/* nan-mutate — turns a correct nan-probe document into one a broken
 * translator would print, for the self-tests' mutant runners
 * (runners/op-mutant-runner.sh).  Each mutation imitates one translator bug of
 * an op family, so a self-test can assert that nan-check names the right rule.
 * Usage and mutations: usage_text below (`nan-mutate --help`).
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buildgate/bg_error.h"
#include "buildgate/bg_file.h"
#include "buildgate/bg_help.h"
#include "nan_cases.h"
#include "nan_x87.h"

static const char usage_text[] =
    "Usage: nan-mutate MUTATION < probe.json > mutated.json\n"
    "\n"
    "Rewrites the records of one op in every phase of a nan-probe document\n"
    "(docs/nan_semantics.md) as a translator with that bug would produce them:\n"
    "  source-clobber:OP     the source register (xmm1) reads 0 after the op\n"
    "                        (a Rosetta bug clobbered cvttpd2dq's source)\n"
    "  dirty-upper:OP        destination bits 127:64 keep 0xdeadbeef... instead of\n"
    "                        the zeros cvtpd2ps / cvt(t)pd2dq write\n"
    "  quiet-snan:OP         every SNaN destination element quieted (a bitwise op\n"
    "                        run through a floating-point path)\n"
    "  signmask-float:OP     movmskps/pd computed as 'element < 0': -0 and\n"
    "                        negative NaNs give 0 bits\n"
    "  copy:FROM:TO          TO's records replaced by FROM's (same operand cases):\n"
    "                        roundps.4 into roundps.1 = immediate ignored\n"
    "  vex-upper-dirty:OP    a VEX.128 op leaves ymm0 bits 255:128 as they were\n"
    "                        (its upper-half marker) instead of zeroing them\n"
    "  vex-merge-dest:OP     a VEX scalar op takes the bits above the scalar from\n"
    "                        the old destination (the legacy SSE rule), not xmm1\n"
    "  x87-snan-unquiet:OP   an x87 op returns an SNaN operand as it is instead of\n"
    "                        quieted (x87_ops.def; Intel SDM Vol.1 Table 4-7)\n"
    "  x87-cw:PHASE:HEX      phase PHASE reports x87 control word HEX, e.g.\n"
    "                        x87-cw:handler:0x0c7f = a handler that keeps the\n"
    "                        interrupted word instead of the FNINIT one;\n"
    "                        x87-cw:PHASE:none = the field dropped\n"
    "  vex-l-ignored:OP      a VEX.256 op (name .256) run as VEX.128: ymm0 bits\n"
    "                        255:128 zero, the upper elements lost (vmovmskps/pd\n"
    "                        .256: mask bits 7:4 / 3:2 lost)\n"
    "  vex-upper-from-lower:OP  a VEX.256 op whose elements fill 256 bits computes\n"
    "                        its upper 128-bit lane from the lower lane's sources:\n"
    "                        bits 255:128 of the result = bits 127:0\n"
    "  store-wide:OP         vcvtps2ph to memory (vcvtps2ph.m64.*, .m128.*) stores\n"
    "                        32 bytes: the bytes beyond its operand become 0\n"
    "  default-nan:OP        every NaN destination element (f16/f32/f64, the whole\n"
    "                        ymm0 for VEX.256) becomes the default NaN: payloads\n"
    "                        lost (a slow path or a half-precision helper)\n"
    "  fact-false:FACT       the document's fact FACT (e.g. ymm_fork_inherited) reads\n"
    "                        false, as a translator that lost the YMM upper halves\n"
    "                        across a fork / a thread / VZEROUPPER would make it\n"
    "Exit: 0 written; 2 usage; 3 I/O; 4 the input is not a probe document.\n";

typedef enum mut {
    M_SOURCE, M_UPPER, M_QUIET, M_SIGNMASK, M_COPY, M_VEX_UPPER, M_VEX_MERGE, M_X87_UNQUIET, M_VEX_L,
    M_DEFAULT_NAN, M_UPPER_FROM_LOWER, M_STORE_WIDE
} mut;

/* Every NaN element of the destination (d, then u) becomes the default NaN
 * (sign, exponent and quiet bit set: Intel SDM Vol.1 4.8.3.7). */
static void default_nans(int k, nan_rec *r)
{
    int bits = nan_dst_bits(k);
    uint64_t v[4] = {r->d[0], r->d[1], r->u[0], r->u[1]};
    uint64_t exp = bits == 64 ? 0x7ff0000000000000ull : bits == 32 ? 0x7f800000u : 0x7c00u;
    uint64_t qbit = bits == 64 ? 0x0008000000000000ull : bits == 32 ? 0x00400000u : 0x0200u;
    uint64_t sign = bits == 64 ? 0x8000000000000000ull : 1ull << (bits - 1);
    for (int l = 0; l < nan_dst_width(k) / bits; l++) {
        uint64_t e = nan_elem(v, bits, l);
        if ((e & exp) == exp && (e & ~(sign | exp)))
            nan_elem_set(v, bits, l, sign | exp | qbit);
    }
    r->d[0] = v[0], r->d[1] = v[1], r->u[0] = v[2], r->u[1] = v[3];
}

/* Quiets every SNaN element of a 128-bit value (width 32 or 64). */
static void quiet_snans(uint64_t d[2], int width)
{
    for (int l = 0; l < 128 / width; l++) {
        int q = width == 64 ? l : l / 2, sh = width == 64 ? 0 : (l % 2) * 32;
        uint64_t mask = width == 64 ? ~0ull : 0xffffffffull;
        uint64_t e = (d[q] >> sh) & mask;
        uint64_t exp = width == 64 ? 0x7ff0000000000000ull : 0x7f800000u;
        uint64_t frac = width == 64 ? 0x000fffffffffffffull : 0x007fffffu;
        uint64_t qbit = width == 64 ? 0x0008000000000000ull : 0x00400000u;
        if ((e & exp) == exp && (e & frac) && !(e & qbit))
            d[q] |= qbit << sh;
    }
}

/* Clears the mask bits of source elements that are -0 or a negative NaN. */
static void float_signmask(nan_rec *r, int width)
{
    for (int l = 0; l < 128 / width; l++) {
        int q = width == 64 ? l : l / 2, sh = width == 64 ? 0 : (l % 2) * 32;
        uint64_t e = width == 64 ? r->s[q] : (r->s[q] >> sh) & 0xffffffffu;
        uint64_t sign = width == 64 ? 0x8000000000000000ull : 0x80000000u;
        uint64_t exp = width == 64 ? 0x7ff0000000000000ull : 0x7f800000u;
        int nan = (e & exp) == exp && (e & ~(sign | exp));
        if (e == sign || (nan && (e & sign)))
            r->d[0] &= ~(1ull << l);
    }
}

/* An x87 result that is an SNaN operand quieted goes back to the SNaN. */
static void x87_unquiet(int k, int i, nan_rec *r)
{
    nan_case c;
    nan_case_get(k, i, &c);
    const uint64_t *in[2] = {c.a, c.b};
    for (int j = 0; j < 2; j++)
        if (nan_x87_is_snan((uint16_t)in[j][1], in[j][0]) && r->d[1] == (in[j][1] & 0xffff) &&
            r->d[0] == (in[j][0] | 1ull << 62)) {
            r->d[0] = in[j][0];
            return;
        }
}

static void mutate(mut m, int k, int i, nan_rec *r)
{
    int width = nan_kind_f64_source(nan_ops[k].kind) ? 64 : 32;
    switch (m) {
    case M_SOURCE: r->s[0] = r->s[1] = 0; break;
    case M_UPPER: r->d[1] = 0xdeadbeefdeadbeefull; break;
    case M_QUIET: quiet_snans(r->d, width); break;
    case M_SIGNMASK: float_signmask(r, width); break;
    case M_COPY: break;
    case M_VEX_UPPER: r->u[0] = nan_ymm_hi_mark[0][0], r->u[1] = nan_ymm_hi_mark[0][1]; break;
    case M_X87_UNQUIET: x87_unquiet(k, i, r); break;
    case M_VEX_MERGE:
        r->d[1] = nan_vex_dst_mark[1];
        if (width == 32)
            r->d[0] = (r->d[0] & 0xffffffffull) | (nan_vex_dst_mark[0] & ~0xffffffffull);
        break;
    case M_VEX_L:
        if (nan_ops[k].dst == D_SIGNMASK) /* only the sign bits of bits 127:0 */
            r->d[0] &= width == 64 ? 0x3u : 0xfu;
        else
            r->u[0] = r->u[1] = 0;
        break;
    case M_UPPER_FROM_LOWER: r->u[0] = r->d[0], r->u[1] = r->d[1]; break;
    case M_STORE_WIDE: {
        uint64_t v[4] = {r->d[0], r->d[1], r->u[0], r->u[1]};
        for (int l = nan_ops[k].lanes; l < 256 / 16; l++)
            nan_elem_set(v, 16, l, 0);
        r->d[0] = v[0], r->d[1] = v[1], r->u[0] = v[2], r->u[1] = v[3];
        break;
    }
    case M_DEFAULT_NAN: default_nans(k, r); break;
    }
}

/* Rewrites op `to`'s record string of one phase's results; 0, or -1 when the
 * document lacks it (from: the copy's source op, -1 otherwise). */
static int rewrite(cJSON *results, mut m, int from, int to)
{
    cJSON *item = cJSON_GetObjectItemCaseSensitive(results, nan_ops[to].name);
    const char *src = from >= 0 ? cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(results, nan_ops[from].name))
                                : cJSON_GetStringValue(item);
    size_t n = (size_t)nan_case_count(to), len = (size_t)nan_rec_hex(to);
    if (!cJSON_IsString(item) || !src || strlen(src) != n * len || (from >= 0 && nan_rec_hex(from) != (int)len))
        return -1;
    char *text = malloc(n * len + 1);
    if (!text)
        return -1;
    for (size_t i = 0; i < n; i++) {
        nan_rec r;
        if (nan_rec_decode(to, src + i * len, &r) != 0) {
            free(text);
            return -1;
        }
        mutate(m, to, (int)i, &r);
        nan_rec_encode(to, &r, text + i * len);
    }
    text[n * len] = '\0';
    cJSON_SetValuestring(item, text);
    free(text);
    return 0;
}

static int parse_mutation(const char *spec, mut *m, int *from, int *to)
{
    static const struct { const char *prefix; mut m; } names[] = {
        {"source-clobber:", M_SOURCE}, {"dirty-upper:", M_UPPER}, {"quiet-snan:", M_QUIET},
        {"signmask-float:", M_SIGNMASK}, {"copy:", M_COPY}, {"vex-upper-dirty:", M_VEX_UPPER},
        {"vex-merge-dest:", M_VEX_MERGE}, {"x87-snan-unquiet:", M_X87_UNQUIET},
        {"vex-l-ignored:", M_VEX_L}, {"default-nan:", M_DEFAULT_NAN},
        {"vex-upper-from-lower:", M_UPPER_FROM_LOWER}, {"store-wide:", M_STORE_WIDE},
    };
    *from = -1;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t len = strlen(names[i].prefix);
        if (strncmp(spec, names[i].prefix, len) != 0)
            continue;
        *m = names[i].m;
        const char *op = spec + len;
        if (*m == M_COPY) {
            const char *colon = strchr(op, ':');
            char first[64];
            if (!colon || (size_t)(colon - op) >= sizeof first)
                return -1;
            memcpy(first, op, (size_t)(colon - op));
            first[colon - op] = '\0';
            *from = nan_op_find(first);
            op = colon + 1;
            if (*from < 0)
                return -1;
        }
        *to = nan_op_find(op);
        if (*to >= 0 && *m == M_VEX_L && nan_ops[*to].ymm != 2)
            return -1; /* only a VEX.256 op has elements in bits 255:128 */
        if (*to >= 0 && *m == M_UPPER_FROM_LOWER &&
            (nan_ops[*to].ymm != 2 || nan_ops[*to].lanes * nan_dst_bits(*to) != 256))
            return -1; /* only an op with elements in both 128-bit lanes has an upper lane to copy into */
        if (*to >= 0 && *m == M_STORE_WIDE && !nan_op_mem_dst(*to))
            return -1; /* a register destination has no bytes beyond its store */
        if (*to >= 0 && *m == M_X87_UNQUIET && !nan_ops[*to].x87)
            return -1; /* an SSE op has no x87 result to leave unquieted: the mutation would do nothing */
        return *to >= 0 && (*from < 0 || nan_case_count(*from) == nan_case_count(*to)) ? 0 : -1;
    }
    return -1;
}

/* x87-cw:PHASE:HEX: the phase's x87_cw (HEX "none": the field removed); 0, or -1 when the
 * spec or the phase is bad. */
static int x87_cw_mutation(cJSON *phases, const char *spec)
{
    char phase[64];
    const char *colon = strchr(spec, ':');
    unsigned long cw;
    char *end;
    if (!colon || (size_t)(colon - spec) >= sizeof phase)
        return -1;
    memcpy(phase, spec, (size_t)(colon - spec));
    phase[colon - spec] = '\0';
    int drop = strcmp(colon + 1, "none") == 0; /* a runner that drops the field */
    cw = drop ? 0 : strtoul(colon + 1, &end, 16);
    if (!drop && (*end || end == colon + 1 || cw > 0xffff))
        return -1;
    cJSON *ph;
    cJSON_ArrayForEach(ph, phases) {
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(ph, "phase"));
        cJSON *item = cJSON_GetObjectItemCaseSensitive(ph, "x87_cw");
        if (name && strcmp(name, phase) == 0 && cJSON_IsString(item)) {
            if (drop) {
                cJSON_DeleteItemFromObjectCaseSensitive(ph, "x87_cw");
                return 0;
            }
            char text[16];
            snprintf(text, sizeof text, "0x%04lx", cw);
            cJSON_SetValuestring(item, text);
            return 0;
        }
    }
    return -1;
}

/* fact-false:FACT: the fact must be in the document (a YMM fact of a guest
 * without AVX is not); 0, or -1. */
static int fact_false(cJSON *doc, const char *fact)
{
    cJSON *facts = cJSON_GetObjectItemCaseSensitive(doc, "facts");
    if (!cJSON_GetObjectItemCaseSensitive(facts, fact))
        return -1;
    return cJSON_ReplaceItemInObjectCaseSensitive(facts, fact, cJSON_CreateFalse()) ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (bg_help_requested(argc, argv))
        return bg_help_print(usage_text);
    mut m = M_COPY;
    int from = -1, to = -1;
    if (argc == 2 && argv[1][0] == '-') {
        bg_errorf("nan-mutate", "unknown option '%s' (see nan-mutate --help)", argv[1]);
        return BG_EXIT_USAGE;
    }
    const char *fact = argc == 2 && strncmp(argv[1], "fact-false:", 11) == 0 ? argv[1] + 11 : NULL;
    int cw_spec = argc == 2 && strncmp(argv[1], "x87-cw:", 7) == 0;
    if (argc != 2 || (!fact && !cw_spec && parse_mutation(argv[1], &m, &from, &to) != 0)) {
        bg_errorf("nan-mutate", "%s: not a known mutation of a known op (see nan-mutate --help)",
                  argc > 1 ? argv[1] : "MUTATION");
        return BG_EXIT_USAGE;
    }
    char *text;
    size_t len;
    if (bg_file_read("/dev/stdin", "nan-mutate", &text, &len) != BG_OK)
        return BG_EXIT_IO;
    cJSON *doc = cJSON_Parse(text);
    free(text);
    cJSON *phases = cJSON_GetObjectItemCaseSensitive(doc, "phases"), *ph;
    if (!cJSON_IsArray(phases) && !(fact && doc)) {
        cJSON_Delete(doc);
        bg_errorf("nan-mutate", "stdin: not a nan-probe document (no phases array)");
        return BG_EXIT_PARSE;
    }
    if (cw_spec && x87_cw_mutation(phases, argv[1] + 7) != 0) {
        cJSON_Delete(doc);
        bg_errorf("nan-mutate", "%s: no such phase with an x87_cw, or not PHASE:HEX", argv[1]);
        return BG_EXIT_PARSE;
    }
    if (fact && fact_false(doc, fact) != 0) {
        cJSON_Delete(doc);
        bg_errorf("nan-mutate", "stdin: the document has no fact %s", fact);
        return BG_EXIT_PARSE;
    }
    cJSON *each = cw_spec || fact ? NULL : phases; /* x87-cw:, fact-false: no op records to rewrite */
    cJSON_ArrayForEach(ph, each) {
        cJSON *results = cJSON_GetObjectItemCaseSensitive(ph, "results");
        if (rewrite(results, m, from, to) != 0) {
            cJSON_Delete(doc);
            bg_errorf("nan-mutate", "stdin: a phase has no valid records of %s", nan_ops[to].name);
            return BG_EXIT_PARSE;
        }
    }
    char *out = cJSON_PrintUnformatted(doc);
    cJSON_Delete(doc);
    int ok = out && puts(out) >= 0 && fflush(stdout) == 0;
    free(out);
    if (!ok) {
        bg_errorf("nan-mutate", "stdout: cannot write");
        return BG_EXIT_IO;
    }
    return BG_EXIT_OK;
}
