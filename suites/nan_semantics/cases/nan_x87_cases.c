/* nan_x87_cases.c — x87 operand classes and case enumeration (nan_x87.h). */
#include "nan_x87.h"

#include <string.h>

typedef struct { uint16_t se; uint64_t f; } x80;

/* Binary-op classes (18): sign/exponent, significand with the explicit J bit. */
#define XB 18
static const x80 xbin[XB] = {
    {0x0000, 0}, {0x8000, 0},                                       /* +-0 */
    {0x0000, 1},                                                    /* +smallest denormal */
    {0x8000, 0x8000000000000001ull},                                /* -pseudo-denormal (J=1, exp 0) */
    {0x3fff, 0x8000000000000000ull}, {0xbfff, 0x8000000000000000ull}, /* +-1 */
    {0x4000, 0xc000000000000000ull},                                /* 3 */
    {0x3ffd, 0xaaaaaaaaaaaaaaabull},                                /* 1/3 (64-bit precision) */
    {0xfffe, 0xffffffffffffffffull},                                /* -max finite */
    {0x0001, 0x8000000000000000ull},                                /* +smallest normal */
    {0x7fff, 0x8000000000000000ull}, {0xffff, 0x8000000000000000ull}, /* +-inf */
    {0x7fff, 0xc000000000000001ull}, {0xffff, 0xc000000000000abcull}, /* +QNaN, -QNaN */
    {0x7fff, 0x8000000000000001ull}, {0xffff, 0xa000000000000abcull}, /* +SNaN, -SNaN */
    {0x3fff, 0x4000000000000000ull},                                /* unnormal (J=0, exp != 0) */
    {0x7fff, 0x4000000000000001ull},                                /* pseudo-NaN (J=0) */
};
/* Unary ops (FSQRT, FLD m80, FST m32/m64, FIST, the transcendentals): the
 * 18, pseudo-infinity, values for rounding, narrowing and integer limits,
 * and (issue 23 item 2) arguments for the transcendentals: 0.5, -0.75 (F2XM1's
 * domain), 100 (reduced by FSIN), two large in-range ones (1e18 and a full
 * 64-bit significand near 1.2e18: FEX #5899, computed in double by QEMU) and
 * a tiny one with its last significand bit set. */
#define XU (XB + 16)
static const x80 xun[XU - XB] = {
    {0x7fff, 0x0000000000000000ull},                                /* pseudo-infinity (J=0) */
    {0x4000, 0xa000000000000000ull},                                /* 2.5 */
    {0x3fff, 0x8000000100000000ull},                                /* 1+2^-31: rounds in m32 */
    {0x401e, 0x8000000000000000ull}, {0x403e, 0x8000000000000000ull}, /* 2^31, 2^63 */
    {0xc03e, 0x8000000000000000ull},                                /* -2^63 (int64 limit) */
    {0x400e, 0x9c40000000000000ull},                                /* 40000 (> int16) */
    {0x7fff, 0xe123456789abcdefull}, {0xffff, 0x9234567890abcdefull}, /* QNaN, SNaN: payloads narrow */
    {0x3c00, 0xc000000000000001ull},                                /* tiny: f64 denormal, inexact */
    {0x3ffe, 0x8000000000000000ull}, {0xbffe, 0xc000000000000000ull}, /* 0.5, -0.75 */
    {0x4005, 0xc800000000000000ull},                                /* 100 */
    {0x403a, 0xde0b6b3a76400000ull}, {0x403c, 0xabcdef0123456789ull}, /* 1e18, ~1.24e18 (< 2^63) */
    {0x3fdd, 0x8000000000000001ull},                                /* 2^-34 (1 + 2^-63) */
};
/* FILD (K_X87_ILD): 64-bit integers; FILD m16 / m32 read their low bits
 * (40000 = -25536 as int16, 2^53+1 and the int64 limits need 64 bits). */
#define XI 12
static const uint64_t xint[XI] = {
    0, 1, 0xffffffffffffffffull, 3, 16777217, 0xffffffff80000000ull, 0x7fffffff, 40000,
    0x0020000000000001ull, 0x7fffffffffffffffull, 0x8000000000000000ull, 0x123456789abcdef1ull,
};

int nan_x87_case_count(nan_kind kind)
{
    return kind == K_X87_BIN ? XB * XB : kind == K_X87_CONST ? 1 : kind == K_X87_ILD ? XI : XU;
}

static void put(uint64_t d[2], x80 v) { d[0] = v.f, d[1] = v.se; }

void nan_x87_case_get(nan_kind kind, int i, nan_case *c)
{
    memset(c, 0, sizeof *c);
    if (kind == K_X87_BIN) {
        put(c->a, xbin[i / XB]), put(c->b, xbin[i % XB]);
        return;
    }
    if (kind == K_X87_CONST || kind == K_X87_ILD) { /* ST1 = ST2 = 1.0; FILD's integer in a[0] */
        put(c->a, xbin[4]), put(c->b, xbin[4]);
        if (kind == K_X87_ILD)
            c->a[0] = xint[i], c->a[1] = 0;
        return;
    }
    put(c->a, i < XB ? xbin[i] : xun[i - XB]);
    put(c->b, xbin[4]);
}

static const nan_x87_op xops[] = {
#define NAN_XOP(name, kind, dst, mem, pc, pc_rule, traits, vendor_bits, text) {mem, pc, pc_rule, traits, vendor_bits},
#include "x87_ops.def"
#undef NAN_XOP
};
#define NX ((int)(sizeof xops / sizeof xops[0]))

const nan_x87_op *nan_x87_op_of(int k)
{
    int j = k - (nan_op_count - NX); /* the x87 rows close the op table (nan_cases.c) */
    return k < nan_op_count && j >= 0 ? &xops[j] : NULL;
}

uint16_t nan_x87_cw(int k, uint32_t mxcsr)
{
    int p = nan_x87_op_of(k)->pc;
    unsigned pc = p == 24 ? 0u : p == 53 ? 2u : 3u;
    unsigned rc = (mxcsr >> NAN_MXCSR_RC_SHIFT) & 3u;
    return (uint16_t)(0x007Fu | pc << 8 | rc << 10);
}

uint32_t nan_x87_mxcsr_during(uint32_t mxcsr) { return mxcsr ^ 3u << NAN_MXCSR_RC_SHIFT; }

uint16_t nan_x87_cw_during_sse(uint32_t mxcsr)
{
    return (uint16_t)(NAN_X87_CW_DEFAULT | (((mxcsr >> NAN_MXCSR_RC_SHIFT) & 3u) ^ 3u) << 10);
}

int nan_x87_is_nan(uint16_t se, uint64_t f)
{
    return (se & 0x7fff) == 0x7fff && (f >> 63) && (f << 1) != 0;
}

int nan_x87_is_snan(uint16_t se, uint64_t f) { return nan_x87_is_nan(se, f) && !((f >> 62) & 1); }
