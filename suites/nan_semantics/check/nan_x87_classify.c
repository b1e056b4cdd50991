/* nan_x87_classify.c — which rule a deviating x87 case breaks (nan_x87.h).
 * Intel SDM Vol.1 ch. 8: 8.2.2 (unsupported encodings), 8.5 (exceptions),
 * Table 4-7 / 8.5.1.2 (NaN results: an SNaN is quieted, of two NaNs the one
 * with the larger significand, the indefinite FFFF C000000000000000 for an
 * invalid operation without a NaN operand), 8.1.5.2 (precision control). */
#include "nan_x87.h"

#include <stdio.h>
#include <string.h>

#include "nan_classify.h"

#define X87_INDEF_SE 0xffffu
#define X87_INDEF_F 0xc000000000000000ull
#define RC_BITS (3u << NAN_MXCSR_RC_SHIFT)

static const char *const rc_names[4] = {"RC=nearest", "RC=down", "RC=up", "RC=toward-zero"};

/* The 80-bit operands of a case (K_X87_LD32/LD64: the memory operand widened,
 * NaNs keeping their payload's top bits, as FLD does). */
static int inputs(int k, const nan_case *c, uint16_t se[2], uint64_t f[2])
{
    switch (nan_ops[k].kind) {
    case K_X87_BIN:
        se[0] = (uint16_t)c->a[1], f[0] = c->a[0], se[1] = (uint16_t)c->b[1], f[1] = c->b[0];
        return 2;
    case K_X87_LD32: {
        uint32_t x = (uint32_t)c->a[0];
        int nan = (x & 0x7f800000u) == 0x7f800000u && (x & 0x007fffffu);
        se[0] = (uint16_t)((x >> 16 & 0x8000) | (nan ? 0x7fff : 0)), f[0] = 1ull << 63 | (uint64_t)(x & 0x7fffff) << 40;
        return nan ? 1 : 0;
    }
    case K_X87_LD64: {
        uint64_t x = c->a[0];
        int nan = (x & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (x & 0x000fffffffffffffull);
        se[0] = (uint16_t)((x >> 48 & 0x8000) | (nan ? 0x7fff : 0)), f[0] = 1ull << 63 | (x & 0x000fffffffffffffull) << 11;
        return nan ? 1 : 0;
    }
    default:
        se[0] = (uint16_t)c->a[1], f[0] = c->a[0];
        return 1;
    }
}

/* Unsupported encodings (Vol.1 8.2.2): exponent not 0 with J = 0. */
static const char *unsupported(uint16_t se, uint64_t f)
{
    if ((se & 0x7fff) == 0 || (f >> 63))
        return NULL;
    if ((se & 0x7fff) != 0x7fff)
        return "unnormal operand";
    return (f << 1) ? "pseudo-NaN operand" : "pseudo-infinity operand";
}

/* 1 when x86 gives the observed destination under another rounding
 * direction (same FTZ/DAZ bits, which x87 ignores) and mode m asks for a
 * directed one: the fixture's record of the case in that mode. */
static int other_rc(const nan_alts *alt, int m, const nan_rec *obs)
{
    uint32_t mx = nan_modes[m].mxcsr;
    if (!(mx & RC_BITS) || !alt)
        return 0;
    for (int mm = 0; mm < NAN_MODE_COUNT; mm++) {
        const nan_rec *r = alt->r[mm];
        uint32_t x = nan_modes[mm].mxcsr ^ mx;
        if (r && (x & RC_BITS) && !(x & ~RC_BITS & 0xffc0u) && r->d[0] == obs->d[0] && r->d[1] == obs->d[1])
            return 1;
    }
    return 0;
}

/* ST0 (D_X87) wrong: the NaN rules, unsupported encodings, precision control. */
static void st0_value(int k, int n_in, const uint16_t *se, const uint64_t *f, const nan_rec *exp,
                      const nan_rec *obs, nan_finding *out, int *n)
{
    uint16_t ese = (uint16_t)exp->d[1], ose = (uint16_t)obs->d[1];
    uint64_t ef = exp->d[0], of = obs->d[0];
    char d[64];
    for (int j = 0; j < n_in && strcmp(nan_ops[k].name, "fld_m80") != 0; j++) {
        const char *u = unsupported(se[j], f[j]);
        if (u) {
            nan_classify_add(out, n, "unsupported-encoding", u);
            return;
        }
    }
    if (nan_x87_is_nan(ese, ef)) {
        for (int j = 0; j < n_in; j++)
            if (nan_x87_is_snan(se[j], f[j]) && ose == se[j] && of == f[j]) {
                nan_classify_add(out, n, "snan-quieting", "x87");
                return;
            }
        int obs_is_input = 0;
        for (int j = 0; j < n_in; j++)
            obs_is_input |= nan_x87_is_nan(se[j], f[j]) && ose == se[j] && of == (f[j] | 1ull << 62);
        if (ese == X87_INDEF_SE && ef == X87_INDEF_F && nan_x87_is_nan(ose, of))
            nan_classify_add(out, n, "default-nan", "x87 indefinite FFFF C000000000000000");
        else if (obs_is_input)
            nan_classify_add(out, n, "nan-operand-priority", "x87: the NaN with the larger significand");
        else
            nan_classify_add(out, n, nan_x87_is_nan(ose, of) ? "nan-propagation" : "value",
                             nan_x87_is_nan(ose, of) ? "x87" : "x87: NaN expected");
        return;
    }
    int pc = nan_ops[k].x87;
    if (pc < 64 && (ose & 0x7fff) != 0x7fff && (of & ((1ull << (64 - pc)) - 1)) != 0) {
        snprintf(d, sizeof d, "PC=%d ignored: result wider than %d bits", pc, pc);
        nan_classify_add(out, n, "precision-control", d);
        return;
    }
    /* a 64-bit-precision result cut to 53 bits: x87 computed in double
       precision (the valgrind manual's documented limitation) */
    if (pc == 64 && (ose & 0x7fff) != 0x7fff && (ef & 0x7ff) != 0 && (of & 0x7ff) == 0 && ose == ese &&
        (of >> 63) && (ef >> 11) - (of >> 11) + 1 <= 2) {
        nan_classify_add(out, n, "precision-control", "64-bit precision computed in 53 bits");
        return;
    }
    for (int j = 0; j < n_in; j++)
        if ((se[j] & 0x7fff) == 0 && f[j] != 0) {
            nan_classify_add(out, n, "value", (f[j] >> 63) ? "x87: pseudo-denormal operand" : "x87: denormal operand");
            return;
        }
    nan_classify_add(out, n, "value", strcmp(nan_ops[k].name, "fld_m80") == 0 ? "x87: FLD m80 not bit-exact" : "x87");
}

/* A stored f32 / f64 / integer wrong (FST, FIST). */
static void stored_value(int k, const nan_rec *exp, const nan_rec *obs, nan_finding *out, int *n)
{
    const nan_op *op = &nan_ops[k];
    int bits = op->dst == D_X87_M32 ? 32 : op->dst == D_X87_M64 ? 64 : strstr(op->name, "16") ? 16
               : strstr(op->name, "32") ? 32 : 64;
    uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1, e = exp->d[0] & mask, o = obs->d[0] & mask;
    if ((exp->d[0] & ~mask) != (obs->d[0] & ~mask))
        nan_classify_add(out, n, "upper-lanes", "x87 store wider than its memory operand");
    if (e == o)
        return;
    if (op->dst == D_X87_INT) {
        uint64_t ind = 1ull << (bits - 1);
        nan_classify_add(out, n, e == ind || o == ind ? "integer-indefinite" : "value",
                         e == ind || o == ind ? "x87" : "x87 integer result");
        return;
    }
    uint64_t expo = bits == 32 ? 0x7f800000u : 0x7ff0000000000000ull;
    uint64_t qbit = bits == 32 ? 0x00400000u : 0x0008000000000000ull;
    uint64_t frac = ~(expo | 1ull << (bits - 1)) & mask;
    int enan = (e & expo) == expo && (e & frac), onan = (o & expo) == expo && (o & frac);
    if (enan && onan && !(o & qbit))
        nan_classify_add(out, n, "snan-quieting", "x87 store");
    else if (enan)
        nan_classify_add(out, n, "nan-propagation", onan ? "x87 store: narrowed NaN payload" : "x87 store: NaN expected");
    else
        nan_classify_add(out, n, "value", "x87 store");
}

int nan_x87_classify(int k, int i, int m, const nan_rec *exp, const nan_rec *obs, const nan_alts *alt,
                     nan_finding *out)
{
    int n = 0;
    nan_case c;
    nan_case_get(k, i, &c);
    uint16_t se[2];
    uint64_t f[2];
    int n_in = inputs(k, &c, se, f);
    if (exp->d[0] != obs->d[0] || exp->d[1] != obs->d[1]) {
        if (other_rc(alt, m, obs))
            nan_classify_add(out, &n, "rounding", rc_names[(nan_modes[m].mxcsr >> NAN_MXCSR_RC_SHIFT) & 3]);
        else if (nan_ops[k].dst == D_X87)
            st0_value(k, n_in, se, f, exp, obs, out, &n);
        else
            stored_value(k, exp, obs, out, &n);
    }
    unsigned esw = (unsigned)(exp->s[0] & 0xffff), osw = (unsigned)(obs->s[0] & 0xffff);
    static const struct { unsigned bit; const char *name; } sw[] = {
        {0x0040, "SF"}, {0x0100, "C0"}, {0x0200, "C1"}, {0x0400, "C2"}, {0x4000, "C3"},
        {0x3800, "TOP"}, {0x0080, "ES"}};
    for (unsigned b = 0; b < sizeof sw / sizeof sw[0]; b++)
        if ((esw ^ osw) & sw[b].bit) {
            char d[64];
            snprintf(d, sizeof d, "status word %s", sw[b].name);
            nan_classify_add(out, &n, "x87-status", d);
        }
    if ((exp->s[0] >> 16) != (obs->s[0] >> 16) || exp->s[1] != obs->s[1])
        nan_classify_add(out, &n, "x87-control", "control word changed by the op");
    if (exp->eflags != obs->eflags) {
        int comi = strstr(nan_ops[k].name, "comi") != NULL;
        nan_classify_add(out, &n, comi ? "fcomi-eflags" : "eflags-clobbered", comi ? "" : "x87");
    }
    return nan_classify_status(m, exp, obs, alt, out, n);
}

uint16_t nan_x87_cw_want(uint32_t mxcsr_want, int fixed_mode)
{
    return fixed_mode < 0 && (mxcsr_want & ~0x3fu) == NAN_MXCSR_WRITTEN ? NAN_X87_CW_WRITTEN : NAN_X87_CW_DEFAULT;
}

const char *nan_x87_cw_rule(const char *mxcsr_rule)
{
    static const char *const map[][2] = {{"handler-mxcsr", "handler-x87-cw"},
                                         {"mxcsr-inheritance", "x87-cw-inheritance"},
                                         {"mxcsr-readback", "x87-cw-readback"},
                                         {"mxcsr-initial", "x87-cw-initial"}};
    for (unsigned i = 0; i < sizeof map / sizeof map[0]; i++)
        if (strcmp(map[i][0], mxcsr_rule) == 0)
            return map[i][1];
    return "x87-cw-inheritance";
}

void nan_x87_cw_diff(uint16_t want, uint16_t got, char *buf, unsigned n)
{
    unsigned x = (unsigned)(want ^ got);
    snprintf(buf, n, "x87 control word differs in%s%s%s%s", (x & 0x0300) ? " PC" : "", (x & 0x0c00) ? " RC" : "",
             (x & 0x003f) ? " exception-masks" : "", (x & ~0x0f3fu) ? " reserved" : "");
}
