/* nan_cases.c — operand tables, case enumeration and MXCSR modes (see nan_cases.h). */
#include "nan_cases.h"

#include "buildgate/bg_hex.h"
#include "nan_x87.h"

#include <stdio.h>
#include <string.h>

const nan_op nan_ops[] = {
#define NAN_OP(name, kind, dst, lanes, feat, props, text) {name, kind, dst, lanes, feat, 0, 0, props},
#define NAN_VOP(name, kind, dst, lanes, feat, props, text) {name, kind, dst, lanes, feat, 1, 0, props},
#define NAN_YOP(name, kind, dst, lanes, feat, props, text) {name, kind, dst, lanes, feat, 2, 0, props},
#include "nan_ops.def"
#undef NAN_OP
#undef NAN_VOP
#undef NAN_YOP
/* x87 rows: props 0 (class C_NONE, no property bits) ; x87 properties: the columns of x87_ops.def, nan_x87_op_of() */
#define NAN_XOP(name, kind, dst, mem, pc, pc_rule, traits, vendor_bits, text) {name, kind, dst, 1, F_NONE, 0, pc, 0},
#include "x87_ops.def"
#undef NAN_XOP
};
const int nan_op_count = (int)(sizeof nan_ops / sizeof nan_ops[0]);
_Static_assert(sizeof nan_ops / sizeof nan_ops[0] <= NAN_OP_MAX, "raise NAN_OP_MAX (nan_cases.h)");

/* Binary-op classes: 14 ordinary values and 4 NaNs. */
#define NV 18
static const uint32_t v32[NV] = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x807fffff, /* +-0, +-min/max subnormal */
    0x00800000, 0x80800000, 0x3f800000, 0xbf800000, 0x7f7fffff, 0xff7fffff, /* +-min normal, +-1, +-max */
    0x7f800000, 0xff800000,                                                 /* +-inf */
    0x7fc00001, 0xffffffff, 0x7f800001, 0xffa00abc,                         /* +QNaN, -QNaN, +SNaN, -SNaN */
};
static const uint64_t v64[NV] = {
    0x0000000000000000, 0x8000000000000000, 0x0000000000000001, 0x8000000000000001,
    0x000fffffffffffff, 0x800fffffffffffff, 0x0010000000000000, 0x8010000000000000,
    0x3ff0000000000000, 0xbff0000000000000, 0x7fefffffffffffff, 0xffefffffffffffff,
    0x7ff0000000000000, 0xfff0000000000000,
    0x7ff8000000000001, 0xffffffffffffffff, 0x7ff0000000000001, 0xfff4000000000abc,
};
/* Unary ops and conversions: the 18 above plus rounding/overflow values. */
#define NU (NV + 9)
static const uint32_t x32[NU - NV] = {
    0x3fc00000, 0xc0200000, 0x3f000000, 0x4f000000, 0xcf000000, /* 1.5 -2.5 0.5 2^31 -2^31 */
    0x5f000000, 0xdf000000, 0x3eaaaaab, 0x4f32d05e,             /* 2^63 -2^63 1/3 3e9 */
};
static const uint64_t x64[NU - NV] = {
    0x3ff8000000000000, 0xc004000000000000, 0x3fe0000000000000, 0x41e0000000000000, /* 1.5 -2.5 0.5 2^31 */
    0xc1e0000000200000, 0x43e0000000000000, 0x3fd5555555555555, 0x7e37e43c8800759c, /* -2^31-1 2^63 1/3 1e300 */
    0x37a16c262777579c,                                                             /* 1e-40 */
};
/* cvt(t)pd2dq: the unary f64 values plus the int32 conversion limits:
 * 2^31-1 and -2^31 (exact), 2^31-0.5 (rounds to 2^31 = out of range under
 * round-to-nearest, truncates to 2^31-1), -2^31-0.5 (in range either way). */
#define NC (NU + 4)
static const uint64_t lim64[NC - NU] = {0x41dfffffffc00000, 0xc1e0000000000000, 0x41dfffffffe00000,
                                        0xc1e0000000100000};
/* FMA: 7 classes (7^3 = 343 triples). */
#define NF 7
static const uint32_t f32[NF] = {0x3f800000, 0x80000000, 0x00000001, 0xff800000,
                                 0x7fc00001, 0xffc00002, 0x7f800003};
static const uint64_t f64[NF] = {0x3ff0000000000000, 0x8000000000000000, 0x0000000000000001,
                                 0xfff0000000000000, 0x7ff8000000000001, 0xfff8000000000002,
                                 0x7ff0000000000003};
/* Integer sources of cvtsi2ss/sd; 32-bit forms carry junk in rcx[63:32]. */
#define NI 8
static const uint64_t i32s[NI] = {0, 1, 0xffffffff, 0x7fffffff, 0x80000000, 0x01000001, 0xfeffffff, 3};
static const uint64_t i64s[NI] = {0, 1, 0xffffffffffffffff, 0x7fffffffffffffff, 0x8000000000000000,
                                  0x0020000000000001, 0x0000000100000001, 0xfffffffffffffffd};

/* F16C (vex256).  Half class (vcvtph2ps sources, binary16 bits): +-0,
 * +-smallest and +-largest subnormal, +-smallest normal, +-1, +-max finite
 * (65504), +-inf, +QNaN and -QNaN with payloads, +SNaN (payload 1), -SNaN,
 * +SNaN with every payload bit set, 1/3. */
#define NH 20
static const uint16_t h16[NH] = {
    0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x83ff, 0x0400, 0x8400, 0x3c00, 0xbc00,
    0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e01, 0xffff, 0x7c01, 0xfd5b, 0x7dff, 0x3555,
};
/* Single-to-half class (vcvtps2ph sources): the unary f32 values plus the
 * binary16 limits: 65504 (max half), 65520 (halfway to 2^16: inf under
 * round-to-nearest, overflow), just below it, -65520, 2^-14 (smallest normal
 * half), the largest half subnormal, 2^-24 (smallest subnormal half), 2^-25
 * (a tie: 0 under round-to-nearest-even), 1.5*2^-25, 2^-26 (underflow),
 * 1+2^-11 (a tie between 1 and 1+2^-10), an SNaN whose payload keeps bits
 * after the 13-bit truncation, a -QNaN whose payload is all in the 13 bits
 * truncated (Intel SDM Vol.1 14.4.1: the result is the QNaN with the upper
 * payload bits). */
#define NS (NU + 13)
static const uint32_t s2h[NS - NU] = {
    0x477fe000, 0x477ff000, 0x477fefff, 0xc77ff000, 0x38800000, 0x387fc000, 0x33800000,
    0x33000000, 0x33400000, 0x32800000, 0x3f801000, 0x7fa02000, 0xffc00001,
};

/* Untouched-lane markers (an SNaN, a subnormal, a QNaN, junk): lanes a
 * translator must pass through bit for bit. */
static const uint64_t mark_a[2] = {0x7fa0000500000001, 0x7ff0000000000abc};
static const uint64_t mark_b[2] = {0xffa0000680000001, 0xfff0000000000def};

const uint64_t nan_vex_dst_mark[2] = {0x7fb0000700000003, 0xfff0000000000123};
const uint64_t nan_ymm_hi_mark[4][2] = {
    {0x7ff4000000000a00, 0xffc00a00ffa00a00}, {0x7ff4000000000a01, 0xffc00a01ffa00a01},
    {0x7ff4000000000a02, 0xffc00a02ffa00a02}, {0x7ff4000000000a03, 0xffc00a03ffa00a03},
};

static uint32_t u32_at(int i) { return i < NV ? v32[i] : x32[i - NV]; }
static uint64_t u64_at(int i) { return i < NV ? v64[i] : x64[i - NV]; }
static uint64_t c64_at(int i) { return i < NU ? u64_at(i) : lim64[i - NU]; }
static uint32_t s32_at(int i) { return i < NU ? u32_at(i) : s2h[i - NU]; }

void nan_elem_set(uint64_t v[4], int bits, int l, uint64_t x)
{
    int per = 64 / bits, sh = (l % per) * bits;
    uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    v[l / per] = (v[l / per] & ~(mask << sh)) | ((x & mask) << sh);
}

static void set32(uint64_t x[4], int lane, uint32_t v) { nan_elem_set(x, 32, lane, v); }
static void set16(uint64_t x[4], int lane, uint16_t v) { nan_elem_set(x, 16, lane, v); }

uint64_t nan_elem(const uint64_t v[4], int bits, int l)
{
    int per = 64 / bits, sh = (l % per) * bits;
    uint64_t mask = bits == 64 ? ~0ull : (1ull << bits) - 1;
    return (v[l / per] >> sh) & mask;
}

int nan_case_count(int k)
{
    switch (nan_ops[k].kind) {
    case K_BIN_S32: case K_BIN_S64: return NV * NV;
    case K_BIN_P32: case K_HADD: return (NV * NV + 3) / 4;
    case K_BIN_P64: return (NV * NV + 1) / 2;
    case K_UN_S32: case K_UN_S64: case K_CVT2I_32: case K_CVT2I_64: return NU;
    case K_UN_P32: return (NU + 3) / 4;
    case K_UN_P64: return (NU + 1) / 2;
    case K_I2F_32: case K_I2F_64: return NI;
    case K_FMA_P32: return (NF * NF * NF + 3) / 4;
    case K_FMA_P64: return (NF * NF * NF + 1) / 2;
    case K_FMA_S32: case K_FMA_S64: return NF * NF * NF;
    case K_UN_P32LO: return (NU + 1) / 2;
    case K_CVTI_P64: return (NC + 1) / 2;
    case K_I2F_P32: return (NI + 3) / 4;
    case K_I2F_P32LO: return (NI + 1) / 2;
    case K_HADD64: return (NV * NV + 1) / 2;
    case K_DP32: case K_DP64: return NV * NV;
    case K_X87_LD32: case K_X87_LD64: return NU;
    case K_X87_BIN: case K_X87_UN: case K_X87_CONST: case K_X87_ILD: return nan_x87_case_count(nan_ops[k].kind);
    case K_BIN_P32Y: return (NV * NV + 7) / 8;
    case K_BIN_P64Y: return (NV * NV + 3) / 4;
    case K_UN_P32Y: return (NU + 7) / 8;
    case K_UN_P64Y: return (NU + 3) / 4;
    case K_FMA_P32Y: return (NF * NF * NF + 7) / 8;
    case K_FMA_P64Y: return (NF * NF * NF + 3) / 4;
    case K_I2F_P32Y: return (NI + 7) / 8;
    case K_CVTI_P64Y: return (NC + 3) / 4;
    case K_UN_P32X: return (NU + 3) / 4;
    case K_H2F: return (NH + 3) / 4;
    case K_H2FY: return (NH + 7) / 8;
    case K_F2H: return (NS + 3) / 4;
    case K_F2HY: return (NS + 7) / 8;
    case K_DP32Y: return (NV * NV + 1) / 2;
    case K_HADDY: return (NV * NV + 7) / 8;
    case K_HADD64Y: return (NV * NV + 3) / 4;
    }
    return 0;
}

size_t nan_case_offset(int k)
{
    size_t off = 0;
    for (int j = 0; j < k; j++)
        off += (size_t)nan_case_count(j);
    return off;
}

size_t nan_case_total(void) { return nan_case_offset(nan_op_count); }

static int kind_fma(nan_kind k)
{
    return k == K_FMA_S32 || k == K_FMA_S64 || k == K_FMA_P32 || k == K_FMA_P64 || k == K_FMA_P32Y ||
           k == K_FMA_P64Y;
}

/* The VEX.256 and F16C kinds (vex256): n lanes of `bits` per operand, case i
 * taking elements n*i .. n*i+n-1 of its class; unary kinds copy b into a
 * (nan_cases.h).  0, or -1 when kind is none of them. */
static int case_get_vex256(nan_kind kind, int i, nan_case *c)
{
    int n = 0, un = 1;
    switch (kind) {
    case K_BIN_P32Y: case K_FMA_P32Y: case K_UN_P32Y: case K_I2F_P32Y: case K_H2FY: case K_F2HY: case K_HADDY:
        n = 8;
        break;
    case K_BIN_P64Y: case K_FMA_P64Y: case K_UN_P64Y: case K_CVTI_P64Y: case K_UN_P32X: case K_H2F: case K_F2H:
    case K_HADD64Y:
        n = 4;
        break;
    case K_DP32Y: /* pair 2i in lane i%4, pair 2i+1 in lane 4+(i+1)%4, 1.0 x 1.0 elsewhere */
        for (int l = 0; l < 8; l++) {
            int own = l == i % 4 ? 2 * i : l == 4 + (i + 1) % 4 ? 2 * i + 1 : -1;
            set32(c->a, l, own >= 0 ? v32[own / NV] : 0x3f800000), set32(c->b, l, own >= 0 ? v32[own % NV] : 0x3f800000);
        }
        return 0;
    default: return -1;
    }
    for (int l = 0; l < n; l++) {
        int p = n * i + l, t = p % (NF * NF * NF);
        switch (kind) {
        case K_BIN_P32Y:
            un = 0, p %= NV * NV;
            set32(c->a, l, v32[p / NV]), set32(c->b, l, v32[p % NV]);
            break;
        case K_BIN_P64Y: un = 0, p %= NV * NV, c->a[l] = v64[p / NV], c->b[l] = v64[p % NV]; break;
        case K_HADDY: { /* pair l -> element l: (a0,a1) (a2,a3) (b0,b1) (b2,b3), then a4.. b6 */
            uint64_t *x = l % 4 < 2 ? c->a : c->b;
            int e = 4 * (l / 4) + 2 * (l % 2);
            un = 0, p %= NV * NV;
            set32(x, e, v32[p / NV]), set32(x, e + 1, v32[p % NV]);
            break;
        }
        case K_HADD64Y: { /* pair l -> element l: (a0,a1) (b0,b1) (a2,a3) (b2,b3) */
            uint64_t *x = l % 2 == 0 ? c->a : c->b;
            un = 0, p %= NV * NV;
            x[2 * (l / 2)] = v64[p / NV], x[2 * (l / 2) + 1] = v64[p % NV];
            break;
        }
        case K_FMA_P32Y:
            un = 0;
            set32(c->a, l, f32[t / (NF * NF)]), set32(c->b, l, f32[t / NF % NF]), set32(c->c, l, f32[t % NF]);
            break;
        case K_FMA_P64Y: un = 0, c->a[l] = f64[t / (NF * NF)], c->b[l] = f64[t / NF % NF], c->c[l] = f64[t % NF]; break;
        case K_UN_P32Y: case K_UN_P32X: set32(c->b, l, u32_at(p % NU)); break;
        case K_UN_P64Y: c->b[l] = u64_at(p % NU); break;
        case K_CVTI_P64Y: c->b[l] = c64_at(p % NC); break;
        case K_I2F_P32Y: set32(c->b, l, (uint32_t)i32s[p % NI]); break;
        case K_H2F: case K_H2FY: set16(c->b, l, h16[p % NH]); break;
        case K_F2H: case K_F2HY: set32(c->b, l, s32_at(p % NS)); break;
        default: break;
        }
    }
    /* unary: the operand in a too; an xmm source keeps a's own upper marker */
    int qwords = (kind == K_UN_P32X || kind == K_H2F || kind == K_H2FY || kind == K_F2H) ? 2 : 4;
    for (int q = 0; un && q < qwords; q++)
        c->a[q] = c->b[q];
    return 0;
}

/* The kinds whose VEX.128 rows read their one operand from xmm1: packed
 * unary ops, conversions and the GPR-destination scalar conversions (the
 * scalar unary kinds take it from xmm2 and bits 127:32 / 127:64 from xmm1). */
static int vex_unary_xmm1(nan_kind kind)
{
    switch (kind) {
    case K_UN_P32: case K_UN_P64: case K_UN_P32LO: case K_CVTI_P64: case K_I2F_P32: case K_I2F_P32LO:
    case K_CVT2I_32: case K_CVT2I_64:
        return 1;
    default:
        return 0;
    }
}

void nan_case_get(int k, int i, nan_case *c)
{
    nan_kind kind = nan_ops[k].kind;
    int fma = kind_fma(kind);
    memcpy(c->a, mark_a, sizeof mark_a);
    memcpy(c->b, mark_b, sizeof mark_b);
    c->c[0] = c->c[1] = 0;
    /* bits 255:128: the marker of the register each operand goes to (nan_vex_images) */
    memcpy(c->a + 2, nan_ymm_hi_mark[fma ? 0 : 1], sizeof nan_ymm_hi_mark[0]);
    memcpy(c->b + 2, nan_ymm_hi_mark[fma ? 1 : 2], sizeof nan_ymm_hi_mark[0]);
    memcpy(c->c + 2, nan_ymm_hi_mark[fma ? 2 : 3], sizeof nan_ymm_hi_mark[0]);
    if (case_get_vex256(kind, i, c) == 0)
        return;
    switch (kind) {
    case K_BIN_S32:
        set32(c->a, 0, v32[i / NV]), set32(c->b, 0, v32[i % NV]);
        break;
    case K_BIN_S64:
        c->a[0] = v64[i / NV], c->b[0] = v64[i % NV];
        break;
    case K_DP32: /* pair i in lane i%4, 1.0 x 1.0 in the others (see nan_ops.def) */
        for (int l = 0; l < 4; l++) {
            int own = l == i % 4;
            set32(c->a, l, own ? v32[i / NV] : 0x3f800000), set32(c->b, l, own ? v32[i % NV] : 0x3f800000);
        }
        break;
    case K_DP64:
        for (int l = 0; l < 2; l++) {
            int own = l == i % 2;
            c->a[l] = own ? v64[i / NV] : 0x3ff0000000000000, c->b[l] = own ? v64[i % NV] : 0x3ff0000000000000;
        }
        break;
    case K_BIN_P32:
        for (int l = 0; l < 4; l++) {
            int p = (4 * i + l) % (NV * NV);
            set32(c->a, l, v32[p / NV]), set32(c->b, l, v32[p % NV]);
        }
        break;
    case K_BIN_P64:
        for (int l = 0; l < 2; l++) {
            int p = (2 * i + l) % (NV * NV);
            c->a[l] = v64[p / NV], c->b[l] = v64[p % NV];
        }
        break;
    case K_HADD64: /* pair l feeds result lane l: (a0,a1) (b0,b1) */
        for (int l = 0; l < 2; l++) {
            int p = (2 * i + l) % (NV * NV);
            uint64_t *x = l == 0 ? c->a : c->b;
            x[0] = v64[p / NV], x[1] = v64[p % NV];
        }
        break;
    case K_FMA_S32:
        set32(c->a, 0, f32[i / (NF * NF)]), set32(c->b, 0, f32[i / NF % NF]), set32(c->c, 0, f32[i % NF]);
        break;
    case K_FMA_S64:
        c->a[0] = f64[i / (NF * NF)], c->b[0] = f64[i / NF % NF], c->c[0] = f64[i % NF];
        break;
    case K_I2F_P32: case K_I2F_P32LO: { /* LO: bits 127:64 keep the marker, as K_UN_P32LO */
        int n = nan_ops[k].kind == K_I2F_P32 ? 4 : 2;
        for (int l = 0; l < n; l++)
            set32(c->b, l, (uint32_t)i32s[(n * i + l) % NI]);
        break;
    }
    case K_HADD: /* pair l feeds result lane l: (a0,a1) (a2,a3) (b0,b1) (b2,b3) */
        for (int l = 0; l < 4; l++) {
            int p = (4 * i + l) % (NV * NV);
            uint64_t *x = l < 2 ? c->a : c->b;
            set32(x, 2 * (l % 2), v32[p / NV]), set32(x, 2 * (l % 2) + 1, v32[p % NV]);
        }
        break;
    case K_UN_S32: set32(c->b, 0, u32_at(i)); break;
    case K_UN_S64: c->b[0] = u64_at(i); break;
    case K_UN_P32: case K_UN_P32LO: { /* LO: bits 127:64 keep the marker: the op must not read them */
        int n = nan_ops[k].kind == K_UN_P32 ? 4 : 2;
        for (int l = 0; l < n; l++)
            set32(c->b, l, u32_at((n * i + l) % NU));
        break;
    }
    case K_UN_P64: case K_CVTI_P64: /* CVTI: the int32 limits too */
        for (int l = 0; l < 2; l++)
            c->b[l] = nan_ops[k].kind == K_UN_P64 ? u64_at((2 * i + l) % NU) : c64_at((2 * i + l) % NC);
        break;
    case K_CVT2I_32: c->a[0] = 0xdeadbeefdeadbeef, c->a[1] = 0, set32(c->b, 0, u32_at(i)); break;
    case K_CVT2I_64: c->a[0] = 0xdeadbeefdeadbeef, c->a[1] = 0, c->b[0] = u64_at(i); break;
    case K_I2F_32: c->b[0] = 0xabcd000000000000 | i32s[i], c->b[1] = 0; break;
    case K_I2F_64: c->b[0] = i64s[i], c->b[1] = 0; break;
    case K_FMA_P32:
        for (int l = 0; l < 4; l++) {
            int t = (4 * i + l) % (NF * NF * NF);
            set32(c->a, l, f32[t / (NF * NF)]), set32(c->b, l, f32[t / NF % NF]);
            set32(c->c, l, f32[t % NF]);
        }
        break;
    case K_FMA_P64:
        for (int l = 0; l < 2; l++) {
            int t = (2 * i + l) % (NF * NF * NF);
            c->a[l] = f64[t / (NF * NF)], c->b[l] = f64[t / NF % NF], c->c[l] = f64[t % NF];
        }
        break;
    case K_X87_LD32: c->a[0] = u32_at(i), c->a[1] = 0; break; /* FLD m32: the unary f32 values */
    case K_X87_LD64: c->a[0] = u64_at(i), c->a[1] = 0; break;
    case K_X87_BIN: case K_X87_UN: case K_X87_CONST: case K_X87_ILD: nan_x87_case_get(nan_ops[k].kind, i, c); break;
    default: break; /* the VEX.256 and F16C kinds: case_get_vex256 */
    }
    /* VEX.128 unary ops that read xmm1 (nan_ops.def, vex128 block): the operand
       in a's low half too, so the record's source field is the source after the op */
    if (nan_ops[k].ymm == 1 && vex_unary_xmm1(kind))
        c->a[0] = c->b[0], c->a[1] = c->b[1];
}

int nan_kind_int_source(nan_kind k)
{
    return k == K_I2F_32 || k == K_I2F_64 || k == K_I2F_P32 || k == K_I2F_P32LO || k == K_I2F_P32Y;
}

int nan_kind_f16_source(nan_kind k) { return k == K_H2F || k == K_H2FY; }

int nan_kind_f64_source(nan_kind k)
{
    switch (k) {
    case K_BIN_S64: case K_BIN_P64: case K_UN_S64: case K_UN_P64: case K_CVT2I_64: case K_FMA_P64:
    case K_CVTI_P64: case K_HADD64: case K_DP64: case K_FMA_S64: case K_BIN_P64Y: case K_UN_P64Y:
    case K_FMA_P64Y: case K_CVTI_P64Y: case K_HADD64Y:
        return 1;
    default:
        return 0;
    }
}

int nan_op_zeroes_upper(int k) { return (nan_ops[k].props & P_ZERO_UPPER) != 0; }

int nan_op_mem_dst(int k) { return (nan_ops[k].props & P_MEM_DST) != 0; }

nan_class nan_op_class(int k) { return (nan_class)(nan_ops[k].props & P_CLASS_MASK); }

const char *nan_class_name(nan_class c)
{
    static const char *const names[C_COUNT] = {
        [C_NONE] = "", [C_ARITH] = "arith", [C_MINMAX] = "minmax", [C_CMP] = "cmp", [C_COMI] = "comi",
        [C_SQRT] = "sqrt", [C_ROUND] = "round", [C_F16C] = "f16c", [C_CVT] = "cvt", [C_HADD] = "hadd",
        [C_FMA] = "fma", [C_DPPS] = "dpps", [C_DPPD] = "dppd", [C_ANDPS] = "andps", [C_ANDNPS] = "andnps",
        [C_ORPS] = "orps", [C_XORPS] = "xorps", [C_ANDPD] = "andpd", [C_ANDNPD] = "andnpd", [C_ORPD] = "orpd",
        [C_XORPD] = "xorpd", [C_MOVMSKPS] = "movmskps", [C_MOVMSKPD] = "movmskpd"};
    return c < C_COUNT ? names[c] : "";
}

int nan_op_imm_rc(int k)
{
    unsigned p = nan_ops[k].props;
    return (p & P_RC_IMM(0)) ? (int)((p >> 7) & 3u) : -1;
}

int nan_op_int_bits(int k)
{
    unsigned w = nan_ops[k].props & P_INT_MASK;
    return w == P_INT(16) ? 16 : w == P_INT(32) ? 32 : w == P_INT(64) ? 64 : 0;
}

const char *nan_feat_name(nan_feat f)
{
    static const char *const names[F_COUNT] = {[F_SSE41] = "sse41", [F_FMA] = "fma", [F_AVX] = "avx",
                                               [F_F16C] = "f16c"};
    return f > F_NONE && f < F_COUNT ? names[f] : NULL;
}

int nan_dst_bits(int k)
{
    switch (nan_ops[k].dst) {
    case D_F16: return 16;
    case D_F64: case D_MASK64: case D_GPR64: case D_BITS64: return 64;
    default: return 32;
    }
}

int nan_dst_width(int k) { return nan_ops[k].ymm == 2 ? 256 : 128; }

void nan_case_inputs(int k, const nan_case *c, int lane, uint64_t in[NAN_MAX_IN], int *n_in)
{
    nan_kind kind = nan_ops[k].kind;
    int w = nan_kind_f16_source(kind) ? 16 : (nan_kind_f64_source(kind) || kind == K_I2F_64) ? 64 : 32;
    switch (kind) {
    case K_HADD64: {
        const uint64_t *x = lane == 0 ? c->a : c->b;
        *n_in = 2;
        in[0] = x[0], in[1] = x[1];
        break;
    }
    case K_DP32: case K_DP64: /* every lane's result depends on all products */
        *n_in = w == 32 ? 8 : 4;
        for (int j = 0; j < *n_in / 2; j++)
            in[2 * j] = nan_elem(c->a, w, j), in[2 * j + 1] = nan_elem(c->b, w, j);
        break;
    case K_DP32Y: { /* every element of a 128-bit half depends on that half's four products */
        int h = 4 * (lane / 4);
        *n_in = 8;
        for (int j = 0; j < 4; j++)
            in[2 * j] = nan_elem(c->a, 32, h + j), in[2 * j + 1] = nan_elem(c->b, 32, h + j);
        break;
    }
    case K_HADDY: {
        const uint64_t *x = lane % 4 < 2 ? c->a : c->b;
        int e = 4 * (lane / 4) + 2 * (lane % 2);
        *n_in = 2;
        in[0] = nan_elem(x, 32, e), in[1] = nan_elem(x, 32, e + 1);
        break;
    }
    case K_HADD64Y: {
        const uint64_t *x = lane % 2 == 0 ? c->a : c->b;
        *n_in = 2;
        in[0] = x[2 * (lane / 2)], in[1] = x[2 * (lane / 2) + 1];
        break;
    }
    case K_I2F_P32: case K_I2F_P32LO: case K_I2F_P32Y: *n_in = 1, in[0] = nan_elem(c->b, 32, lane); break;
    case K_BIN_S32: case K_BIN_S64: case K_BIN_P32: case K_BIN_P64: case K_BIN_P32Y: case K_BIN_P64Y:
        *n_in = 2;
        in[0] = nan_elem(c->a, w, lane), in[1] = nan_elem(c->b, w, lane);
        break;
    case K_HADD: {
        const uint64_t *x = lane < 2 ? c->a : c->b;
        *n_in = 2;
        in[0] = nan_elem(x, 32, 2 * (lane % 2)), in[1] = nan_elem(x, 32, 2 * (lane % 2) + 1);
        break;
    }
    case K_FMA_P32: case K_FMA_P64: case K_FMA_S32: case K_FMA_S64: case K_FMA_P32Y: case K_FMA_P64Y:
        *n_in = 3;
        in[0] = nan_elem(c->a, w, lane), in[1] = nan_elem(c->b, w, lane), in[2] = nan_elem(c->c, w, lane);
        break;
    case K_I2F_32: *n_in = 1, in[0] = (uint32_t)c->b[0]; break;
    case K_I2F_64: *n_in = 1, in[0] = c->b[0]; break;
    default: /* unary: source element `lane` */
        *n_in = 1;
        in[0] = nan_elem(c->b, w, lane);
        break;
    }
}

uint64_t nan_fnv64(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

uint64_t nan_case_table_digest(void)
{
    uint64_t h = NAN_FNV64_START;
    for (int k = 0; k < nan_op_count; k++) {
        h = nan_fnv64(h, nan_ops[k].name, strlen(nan_ops[k].name) + 1);
        for (int i = 0; i < nan_case_count(k); i++) {
            nan_case c;
            nan_case_get(k, i, &c);
            h = nan_fnv64(h, &c, sizeof c);
        }
    }
    for (int m = 0; m < NAN_MODE_COUNT; m++)
        h = nan_fnv64(h, &nan_modes[m].mxcsr, sizeof nan_modes[m].mxcsr);
    h = nan_fnv64(h, nan_vex_dst_mark, sizeof nan_vex_dst_mark);
    return nan_fnv64(h, nan_ymm_hi_mark, sizeof nan_ymm_hi_mark);
}

int nan_op_find(const char *name)
{
    for (int k = 0; k < nan_op_count; k++)
        if (strcmp(nan_ops[k].name, name) == 0)
            return k;
    return -1;
}

#define MODE(name, rc, ftz, daz, base)                                                           \
    {name, NAN_MXCSR_DEFAULT | ((rc) << NAN_MXCSR_RC_SHIFT) | ((ftz) ? NAN_MXCSR_FTZ : 0) |      \
               ((daz) ? NAN_MXCSR_DAZ : 0), base}
/* RC: 0 nearest (rn), 1 down (rd), 2 up (ru), 3 toward zero (rz). */
const nan_mode nan_modes[NAN_MODE_COUNT] = {
    MODE("default", 0, 0, 0, 1),    MODE("ftz", 0, 1, 0, 1),    MODE("daz", 0, 0, 1, 1),
    MODE("ftz_daz", 0, 1, 1, 1),    MODE("rd", 1, 0, 0, 1),     MODE("ftz_rd", 1, 1, 0, 0),
    MODE("daz_rd", 1, 0, 1, 0),     MODE("ftz_daz_rd", 1, 1, 1, 0), MODE("ru", 2, 0, 0, 1),
    MODE("ftz_ru", 2, 1, 0, 0),     MODE("daz_ru", 2, 0, 1, 0), MODE("ftz_daz_ru", 2, 1, 1, 0),
    MODE("rz", 3, 0, 0, 1),         MODE("ftz_rz", 3, 1, 0, 0), MODE("daz_rz", 3, 0, 1, 0),
    MODE("ftz_daz_rz", 3, 1, 1, 1),
};

int nan_mode_find(const char *name)
{
    for (int m = 0; m < NAN_MODE_COUNT; m++)
        if (strcmp(nan_modes[m].name, name) == 0)
            return m;
    return -1;
}

int nan_mode_by_mxcsr(uint32_t mxcsr)
{
    for (int m = 0; m < NAN_MODE_COUNT; m++)
        if ((nan_modes[m].mxcsr & ~0x3fu) == (mxcsr & ~0x3fu))
            return m;
    return -1;
}

int nan_mode_base(int m)
{
    uint32_t rc_mask = 3u << NAN_MXCSR_RC_SHIFT;
    if (nan_modes[m].mxcsr & rc_mask)
        return nan_mode_by_mxcsr(nan_modes[m].mxcsr & ~rc_mask);
    return nan_mode_find("default");
}

void nan_vex_images(nan_kind kind, const nan_case *c, uint64_t img[4][4])
{
    int fma = kind_fma(kind);
    const uint64_t *op[4] = {fma ? c->a : NULL, fma ? c->b : c->a, fma ? c->c : c->b, fma ? NULL : c->c};
    for (int r = 0; r < 4; r++) {
        /* ymm0 of a non-FMA op: the old destination; ymm3 of an FMA op: c's
           low half again (an unread register) */
        const uint64_t *lo = op[r] ? op[r] : r == 0 ? nan_vex_dst_mark : c->c;
        const uint64_t *hi = op[r] ? op[r] + 2 : nan_ymm_hi_mark[r];
        img[r][0] = lo[0], img[r][1] = lo[1], img[r][2] = hi[0], img[r][3] = hi[1];
    }
}

int nan_rec_hex(int k) { return nan_ops[k].ymm ? NAN_REC_HEX_YMM : NAN_REC_HEX; }

void nan_rec_encode(int k, const nan_rec *r, char *out)
{
    char buf[NAN_REC_HEX_YMM + 1];
    snprintf(buf, sizeof buf, "%016llx%016llx%016llx%016llx%016llx%016llx%02x%02x",
             (unsigned long long)r->u[1], (unsigned long long)r->u[0], (unsigned long long)r->d[1],
             (unsigned long long)r->d[0], (unsigned long long)r->s[1], (unsigned long long)r->s[0], r->flags,
             r->eflags);
    int n = nan_rec_hex(k);
    memcpy(out, buf + NAN_REC_HEX_YMM - n, (size_t)n);
}

static uint64_t be64(const uint8_t *b)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = (v << 8) | b[i];
    return v;
}

int nan_rec_decode(int k, const char *in, nan_rec *r)
{
    char hex[NAN_REC_HEX_YMM + 1];
    uint8_t b[NAN_REC_HEX_YMM / 2];
    size_t n = 0, len = (size_t)nan_rec_hex(k), pad = NAN_REC_HEX_YMM - len;
    memset(hex, '0', pad); /* a 128-bit record reads as u = 0 */
    memcpy(hex + pad, in, len);
    hex[NAN_REC_HEX_YMM] = '\0';
    if (strlen(hex) != NAN_REC_HEX_YMM || bg_hex_decode(hex, b, sizeof b, &n) != BG_OK || n != sizeof b)
        return -1;
    r->u[1] = be64(b), r->u[0] = be64(b + 8), r->d[1] = be64(b + 16), r->d[0] = be64(b + 24);
    r->s[1] = be64(b + 32), r->s[0] = be64(b + 40);
    r->flags = b[48], r->eflags = b[49];
    return 0;
}

int nan_rec_equal(const nan_rec *x, const nan_rec *y)
{
    return x->u[0] == y->u[0] && x->u[1] == y->u[1] && x->d[0] == y->d[0] && x->d[1] == y->d[1] && x->s[0] == y->s[0] && x->s[1] == y->s[1] &&
           x->flags == y->flags && x->eflags == y->eflags;
}
