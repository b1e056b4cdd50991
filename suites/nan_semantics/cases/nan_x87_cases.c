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
/* Unary ops (FSQRT, FLD m80, FST m32/m64, FIST): the 18, pseudo-infinity,
 * and values for rounding, narrowing and integer limits. */
#define XU (XB + 10)
static const x80 xun[XU - XB] = {
    {0x7fff, 0x0000000000000000ull},                                /* pseudo-infinity (J=0) */
    {0x4000, 0xa000000000000000ull},                                /* 2.5 */
    {0x3fff, 0x8000000100000000ull},                                /* 1+2^-31: rounds in m32 */
    {0x401e, 0x8000000000000000ull}, {0x403e, 0x8000000000000000ull}, /* 2^31, 2^63 */
    {0xc03e, 0x8000000000000000ull},                                /* -2^63 (int64 limit) */
    {0x400e, 0x9c40000000000000ull},                                /* 40000 (> int16) */
    {0x7fff, 0xe123456789abcdefull}, {0xffff, 0x9234567890abcdefull}, /* QNaN, SNaN: payloads narrow */
    {0x3c00, 0xc000000000000001ull},                                /* tiny: f64 denormal, inexact */
};

int nan_x87_case_count(nan_kind kind) { return kind == K_X87_BIN ? XB * XB : XU; }

static void put(uint64_t d[2], x80 v) { d[0] = v.f, d[1] = v.se; }

void nan_x87_case_get(nan_kind kind, int i, nan_case *c)
{
    memset(c, 0, sizeof *c);
    if (kind == K_X87_BIN) {
        put(c->a, xbin[i / XB]), put(c->b, xbin[i % XB]);
        return;
    }
    put(c->a, i < XB ? xbin[i] : xun[i - XB]);
    put(c->b, xbin[4]);
}

uint16_t nan_x87_cw(int k, uint32_t mxcsr)
{
    unsigned pc = nan_ops[k].x87 == 24 ? 0u : nan_ops[k].x87 == 53 ? 2u : 3u;
    unsigned rc = (mxcsr >> NAN_MXCSR_RC_SHIFT) & 3u;
    return (uint16_t)(0x007Fu | pc << 8 | rc << 10);
}

int nan_x87_is_nan(uint16_t se, uint64_t f)
{
    return (se & 0x7fff) == 0x7fff && (f >> 63) && (f << 1) != 0;
}

int nan_x87_is_snan(uint16_t se, uint64_t f) { return nan_x87_is_nan(se, f) && !((f >> 62) & 1); }
