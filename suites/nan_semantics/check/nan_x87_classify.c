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
    case K_X87_CONST: case K_X87_ILD: /* no floating-point operand */
        return 0;
    default:
        se[0] = (uint16_t)c->a[1], f[0] = c->a[0];
        return 1;
    }
}

/* 1 when the 80-bit value is finite and supported (not NaN, infinity or an
 * unsupported encoding). */
static int finite80(uint16_t se, uint64_t f) { return (se & 0x7fff) != 0x7fff && ((se & 0x7fff) == 0 || (f >> 63)); }

/* Distance in ulps of the lower binade between two finite 80-bit values of
 * one sign whose exponents differ by at most 1 (else UINT64_MAX). */
static uint64_t ulp_distance(uint16_t se1, uint64_t f1, uint16_t se2, uint64_t f2)
{
    int e1 = (se1 & 0x7fff) ? (se1 & 0x7fff) : 1, e2 = (se2 & 0x7fff) ? (se2 & 0x7fff) : 1;
    if (e1 == e2)
        return f1 > f2 ? f1 - f2 : f2 - f1;
    if (e1 - e2 != 1 && e2 - e1 != 1)
        return UINT64_MAX;
    uint64_t hi = e1 > e2 ? f1 : f2, lo = e1 > e2 ? f2 : f1;
    if ((hi - (1ull << 63)) >> 62 || !(lo >> 63))
        return UINT64_MAX;
    return (hi - (1ull << 63)) * 2 + (0 - lo); /* 2^64 - lo, lo >= 2^63 */
}

/* Vendor-defined bits (x87_ops.def "vendor bits"): a finite result of finite
 * operands within 2^bits - 1 ulps of the fixture's, C1 (round-up) as
 * the fixture's: the CPU vendors' results may differ there (Vol.1 8.3.10). */
static int within_vendor_bits(int k, int n_in, const uint16_t *se, const uint64_t *f, uint16_t ese, uint64_t ef,
                              uint16_t ose, uint64_t of)
{
    int bits = nan_x87_op_of(k)->vendor_bits;
    if (bits == 0 || !finite80(ese, ef) || !finite80(ose, of) || (ese & 0x8000) != (ose & 0x8000))
        return 0;
    for (int j = 0; j < n_in; j++)
        if (!finite80(se[j], f[j]))
            return 0;
    return ulp_distance(ese, ef, ose, of) <= (uint64_t)((1 << bits) - 1);
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

/* ST0 (D_X87) or ST1 (XT_ST1) wrong: the NaN rules, unsupported encodings,
 * argument reduction, precision control. */
static void x87_value(int k, int n_in, const uint16_t *se, const uint64_t *f, uint16_t ese, uint64_t ef,
                      uint16_t ose, uint64_t of, const nan_rec *exp, const nan_rec *obs, nan_finding *out, int *n)
{
    const nan_x87_op *x = nan_x87_op_of(k);
    char d[96];
    if ((x->traits & XT_REDUCE) && (exp->s[0] & 0x0400) && n_in == 1) { /* C2: |x| >= 2^63 */
        nan_classify_add(out, n, "value", (obs->s[0] & 0x0400) ? "x87: out-of-range operand (C2 set) not left unchanged"
                                                               : "x87: out-of-range operand (>= 2^63) reduced (C2 not set)");
        return;
    }
    for (int j = 0; j < n_in && !(x->traits & XT_COPY); j++) {
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
    int pc = x->pc;
    uint64_t below = pc < 64 ? (1ull << (64 - pc)) - 1 : 0;
    if (pc < 64 && x->pc_rule == X_PC_ROUNDS && (ose & 0x7fff) != 0x7fff && (of & below) != 0) {
        snprintf(d, sizeof d, "PC=%d ignored: result wider than %d bits", pc, pc);
        nan_classify_add(out, n, "precision-control", d);
        return;
    }
    /* a 64-bit result cut to 53 bits: x87 computed in double precision (the
       valgrind manual's documented limitation), whatever the row's PC */
    int cut53 = (ose & 0x7fff) != 0x7fff && (ef & 0x7ff) != 0 && (of & 0x7ff) == 0 && ose == ese && (of >> 63) &&
                (ef >> 11) - (of >> 11) + 1 <= 2;
    if (pc < 64 && x->pc_rule == X_PC_EXACT && !cut53 && (ose & 0x7fff) != 0x7fff && (ef & below) != 0 &&
        (of & below) == 0) {
        snprintf(d, sizeof d, "PC=%d applied to an op it does not affect (Vol.1 8.1.5.2)", pc);
        nan_classify_add(out, n, "precision-control", d);
        return;
    }
    if ((pc == 64 || x->pc_rule == X_PC_EXACT) && cut53) {
        nan_classify_add(out, n, "precision-control", "64-bit precision computed in 53 bits");
        return;
    }
    for (int j = 0; j < n_in; j++)
        if ((se[j] & 0x7fff) == 0 && f[j] != 0) {
            nan_classify_add(out, n, "value", (f[j] >> 63) ? "x87: pseudo-denormal operand" : "x87: denormal operand");
            return;
        }
    if (x->vendor_bits) {
        snprintf(d, sizeof d, "x87: beyond the vendor-defined last %d bit(s)", x->vendor_bits);
        nan_classify_add(out, n, "value", d);
        return;
    }
    nan_classify_add(out, n, "value", (x->traits & XT_COPY) ? "x87: FLD m80 not bit-exact" : "x87");
}

/* A stored f32 / f64 / integer wrong (FST, FIST). */
static void stored_value(int k, const nan_rec *exp, const nan_rec *obs, nan_finding *out, int *n)
{
    const nan_op *op = &nan_ops[k];
    int bits = nan_x87_op_of(k)->mem;
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

/* 1 when ST0 is a finite operand outside the op's domain (XT_DOM1: |x| > 1;
 * XT_DOMP1: |x| >= 1 - sqrt(2)/2 = 0.2928932..., here |x| >= 0.29). */
static int outside_domain(const nan_x87_op *x, uint16_t se, uint64_t f)
{
    if (!(x->traits & (XT_DOM1 | XT_DOMP1)) || !finite80(se, f) || (se & 0x7fff) == 0)
        return 0;
    int e = (se & 0x7fff) - 16383; /* |x| = (f / 2^63) * 2^e, f / 2^63 in [1, 2) */
    long double m = (long double)f / 9223372036854775808.0L;
    if (x->traits & XT_DOM1)
        return e > 0 || (e == 0 && m > 1.0L);
    return e >= -1 || (e == -2 && m * 0.25L >= 0.29L);
}

/* 1 when a runner rounded x87 op k under the MXCSR RC in effect
 * (nan_x87_mxcsr_during; FEX #1665): the fixture's record in a mode whose RC
 * is that one gives the observed destination, and that RC is a directed one
 * whose record differs from round-to-nearest's (else a runner that ignores
 * the x87 RC looks the same), and the destination is finite (valgrind's
 * 64-bit doubles overflow to the infinity RC=up gives), and the whole record
 * (status word, flags) is that mode's: a runner computing at the wrong
 * precision meets another RC's value by chance, not its flags and C1. */
static int rc_of_mxcsr(const nan_alts *alt, int m, const nan_rec *obs)
{
    uint32_t want = nan_x87_mxcsr_during(nan_modes[m].mxcsr) & RC_BITS;
    int match = 0;
    if (want == 0) /* MXCSR at nearest: not told apart from an x87 RC ignored (valgrind 3.19) */
        return 0;
    if (((uint16_t)obs->d[1] & 0x7fff) == 0x7fff) /* an infinity: double overflow matches RC=up / down by chance */
        return 0;
    for (int mm = 0; alt && mm < NAN_MODE_COUNT; mm++) {
        const nan_rec *r = alt->r[mm];
        int same = r && r->d[0] == obs->d[0] && r->d[1] == obs->d[1] && r->s[1] == obs->s[1];
        if (same && (nan_modes[mm].mxcsr & RC_BITS) == 0)
            return 0; /* the round-to-nearest record: RC ignored, not taken from MXCSR */
        match |= same && (nan_modes[mm].mxcsr & RC_BITS) == want && nan_rec_equal(r, obs); /* flags, C1 too */
    }
    return match;
}

int nan_x87_classify(int k, int i, int m, const nan_rec *exp, const nan_rec *obs, const nan_alts *alt,
                     nan_finding *out)
{
    int n = 0;
    const nan_x87_op *x = nan_x87_op_of(k);
    nan_case c;
    nan_case_get(k, i, &c);
    uint16_t se[2];
    uint64_t f[2];
    int n_in = inputs(k, &c, se, f);
    if (n_in > 0 && outside_domain(x, se[0], f[0]))
        return 0; /* an undefined result (Vol.2A F2XM1, FYL2XP1): not judged */
    uint16_t ese1 = (uint16_t)(exp->s[0] >> 32), ose1 = (uint16_t)(obs->s[0] >> 32);
    int st0_differs = exp->d[0] != obs->d[0] || exp->d[1] != obs->d[1];
    int st1_differs = (x->traits & XT_ST1) && (exp->s[1] != obs->s[1] || ese1 != ose1);
    unsigned c1_ok = 0; /* C1 is vendor-defined where the results are (x87_ops.def "vendor bits") */
    if (x->vendor_bits && (st0_differs || st1_differs || ((exp->s[0] ^ obs->s[0]) & 0x0200))) {
        int ok0 = !st0_differs || within_vendor_bits(k, n_in, se, f, (uint16_t)exp->d[1], exp->d[0],
                                                     (uint16_t)obs->d[1], obs->d[0]);
        int ok1 = !st1_differs || within_vendor_bits(k, n_in, se, f, ese1, exp->s[1], ose1, obs->s[1]);
        int fin = n_in > 0 && finite80((uint16_t)exp->d[1], exp->d[0]);
        for (int j = 0; j < n_in; j++)
            fin &= finite80(se[j], f[j]);
        if (ok0 && ok1 && fin)
            st0_differs = st1_differs = 0, c1_ok = 0x0200;
    }
    if (st0_differs) {
        if (!x->vendor_bits && other_rc(alt, m, obs)) /* vendor rows: RC is within their vendor bits */
            nan_classify_add(out, &n, "rounding",
                             rc_of_mxcsr(alt, m, obs) ? "x87 rounded under the MXCSR RC, not the x87 control word's"
                                                      : rc_names[(nan_modes[m].mxcsr >> NAN_MXCSR_RC_SHIFT) & 3]);
        else if (nan_ops[k].dst == D_X87)
            x87_value(k, n_in, se, f, (uint16_t)exp->d[1], exp->d[0], (uint16_t)obs->d[1], obs->d[0], exp, obs,
                      out, &n);
        else
            stored_value(k, exp, obs, out, &n);
    }
    if (st1_differs && !(st0_differs && n > 0 && strcmp(out[n - 1].rule, "rounding") == 0))
        x87_value(k, n_in, se, f, ese1, exp->s[1], ose1, obs->s[1], exp, obs, out, &n);
    unsigned esw = (unsigned)(exp->s[0] & 0xffff), osw = (unsigned)(obs->s[0] & 0xffff);
    static const struct { unsigned bit; const char *name; } sw[] = {
        {0x0040, "SF"}, {0x0100, "C0"}, {0x0200, "C1"}, {0x0400, "C2"}, {0x4000, "C3"},
        {0x3800, "TOP"}, {0x0080, "ES"}};
    for (unsigned b = 0; b < sizeof sw / sizeof sw[0]; b++)
        if ((esw ^ osw) & sw[b].bit & ~c1_ok) {
            char d[64];
            snprintf(d, sizeof d, "status word %s", sw[b].name);
            nan_classify_add(out, &n, "x87-status", d);
        }
    if (((exp->s[0] >> 16) & 0xffff) != ((obs->s[0] >> 16) & 0xffff))
        nan_classify_add(out, &n, "x87-control", "control word changed by the op");
    if (exp->eflags != obs->eflags) {
        int comi = (x->traits & XT_EFLAGS) != 0;
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
