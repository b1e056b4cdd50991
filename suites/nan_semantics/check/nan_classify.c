/* nan_classify.c — see nan_classify.h. */
#include "nan_classify.h"
#include "nan_x87.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fmt {
    int bits, mbits; /* element and fraction bits */
    uint64_t sign, exp, frac, qbit;
} fmt;

static const fmt F16 = {16, 10, 0x8000u, 0x7c00u, 0x03ffu, 0x0200u}; /* IEEE 754-2008 binary16 */
static const fmt F32 = {32, 23, 0x80000000u, 0x7f800000u, 0x007fffffu, 0x00400000u};
static const fmt F64 = {64, 52, 0x8000000000000000ull, 0x7ff0000000000000ull, 0x000fffffffffffffull,
                        0x0008000000000000ull};

static int is_nan(const fmt *f, uint64_t x) { return (x & f->exp) == f->exp && (x & f->frac); }
static int is_snan(const fmt *f, uint64_t x) { return is_nan(f, x) && !(x & f->qbit); }
static int is_zero(const fmt *f, uint64_t x) { return (x & ~f->sign) == 0; }
static int is_subnormal(const fmt *f, uint64_t x) { return (x & f->exp) == 0 && (x & f->frac); }
static uint64_t default_nan(const fmt *f) { return f->sign | f->exp | f->qbit; }

/* A NaN of format `from` as the format `to` would carry it, quieted:
 * sign kept, fraction MSB-aligned, low bits truncated when narrowing
 * (Vol.1 4.8.3.5, CVTSS2SD/CVTSD2SS; Vol.1 14.4.1 Table 14-9, VCVTPS2PH /
 * VCVTPH2PS). */
static uint64_t nan_convert(const fmt *from, const fmt *to, uint64_t x)
{
    uint64_t sign = (x & from->sign) ? to->sign : 0;
    uint64_t frac = x & from->frac;
    frac = from->mbits < to->mbits ? frac << (to->mbits - from->mbits) : frac >> (from->mbits - to->mbits);
    return sign | to->exp | frac | to->qbit;
}

/* A record's destination as one 256-bit value: d (bits 127:0), then u. */
static void whole(const nan_rec *r, uint64_t v[4]) { v[0] = r->d[0], v[1] = r->d[1], v[2] = r->u[0], v[3] = r->u[1]; }

static uint64_t lane(const nan_rec *r, int bits, int l)
{
    uint64_t v[4];
    whole(r, v);
    return nan_elem(v, bits, l);
}

static const fmt *src_fmt(nan_kind k)
{
    return nan_kind_f16_source(k) ? &F16 : nan_kind_f64_source(k) ? &F64 : &F32;
}

void nan_flag_names(unsigned bits, char *buf, unsigned n)
{
    static const char *const names[6] = {"IE", "DE", "ZE", "OE", "UE", "PE"};
    buf[0] = '\0';
    for (int b = 0; b < 6; b++) {
        if (bits & (1u << b)) {
            size_t len = strlen(buf);
            snprintf(buf + len, n - len, "%s%s", len ? " " : "", names[b]);
        }
    }
}

static void add(nan_finding *out, int *n, const char *rule, const char *detail)
{
    for (int j = 0; j < *n; j++)
        if (strcmp(out[j].rule, rule) == 0 && strcmp(out[j].detail, detail) == 0)
            return;
    if (*n >= NAN_MAX_FINDINGS)
        return;
    out[*n].rule = rule;
    snprintf(out[*n].detail, sizeof out[*n].detail, "%s", detail);
    (*n)++;
}

/* "RC=down" / "RC=up" / "RC=toward-zero": the rounding direction in force. */
static const char *const rc_names[4] = {"RC=nearest", "RC=down", "RC=up", "RC=toward-zero"};

static const char *rc_name(int m) { return rc_names[(nan_modes[m].mxcsr >> NAN_MXCSR_RC_SHIFT) & 3]; }

static const char *mode_cause(int m)
{
    uint32_t mx = nan_modes[m].mxcsr;
    int ftz = !!(mx & NAN_MXCSR_FTZ), daz = !!(mx & NAN_MXCSR_DAZ);
    return ftz && daz ? "FTZ+DAZ" : ftz ? "FTZ" : daz ? "DAZ" : "";
}

#define RC_BITS (3u << NAN_MXCSR_RC_SHIFT)
#define FLUSH_BITS (NAN_MXCSR_FTZ | NAN_MXCSR_DAZ)

/* Which aspect of a record alt_gives compares. */
enum { SEL_LANE, SEL_FLAGS, SEL_EFLAGS };

/* 1 when x86 gives v (destination element l of `bits` bits, masked to 32
 * bits for gpr32; or the status flags; or EFLAGS) in a mode that differs from
 * m in exactly the control fields `differ` (RC_BITS, FLUSH_BITS or both) and
 * in no other: the fixture's record of the same case under that mode.  Only
 * a setting mode m asks for can be ignored: a directed rounding (RC not
 * nearest) for RC_BITS, FTZ or DAZ on for FLUSH_BITS; a wrong value under
 * round-to-nearest without FTZ/DAZ is never blamed on them (a -0 from a
 * sign bug equals x86's RC=down result, but RC is not its cause). */
static int alt_mode(const nan_alts *alt, int m, uint32_t differ, int sel, int bits, int l, int gpr32,
                    uint64_t v)
{
    uint32_t mx = nan_modes[m].mxcsr;
    if (((differ & RC_BITS) && !(mx & RC_BITS)) || ((differ & FLUSH_BITS) && !(mx & FLUSH_BITS)))
        return -1;
    for (int mm = 0; alt && mm < NAN_MODE_COUNT; mm++) {
        uint32_t x = nan_modes[mm].mxcsr ^ mx;
        const nan_rec *r = alt->r[mm];
        if (!r || (x & ~differ & (RC_BITS | FLUSH_BITS)) != 0)
            continue;
        /* every field named in differ must differ (FTZ or DAZ for FLUSH_BITS) */
        if (((differ & RC_BITS) && !(x & RC_BITS)) || ((differ & FLUSH_BITS) && !(x & FLUSH_BITS)))
            continue;
        uint64_t a = sel == SEL_FLAGS ? (uint64_t)(r->flags & 0x3f)
                     : sel == SEL_EFLAGS ? (uint64_t)r->eflags
                                         : lane(r, bits, l);
        if (gpr32 && sel == SEL_LANE)
            a &= 0xffffffffu;
        if (a == v)
            return mm;
    }
    return -1;
}

/* alt_mode as a yes/no. */
static int alt_gives(const nan_alts *alt, int m, uint32_t differ, int sel, int bits, int l, int gpr32,
                     uint64_t v)
{
    return alt_mode(alt, m, differ, sel, bits, l, gpr32, v) >= 0;
}

/* The rounding finding's detail when mode m's result is x86's under mode mm
 * (same FTZ/DAZ, another RC): one detail per cause, not per phase, so a
 * runner that ignores MXCSR.RC (box64 #4408, valgrind's SSE arithmetic) is
 * one group whatever directed modes ran (issue 23 item 6). */
static void rc_detail(int m, int mm, char *d, size_t n)
{
    unsigned used = (nan_modes[mm].mxcsr >> NAN_MXCSR_RC_SHIFT) & 3;
    if (used == 0)
        snprintf(d, n, "MXCSR.RC ignored: the round-to-nearest result");
    else
        snprintf(d, n, "%s gave the %s result", rc_name(m), rc_names[used]);
}

/* A mode that differs from m in RC alone (m rounding in a direction) and
 * gives exactly obs's destination (bits 255:0), and with flags_too obs's
 * status flags as well; -1 when none.  Without flags: the whole destination
 * is another direction's, so no lane is judged on its own (a VEX.256 round
 * whose upper results round to zero is not a VEX.L bug). */
static int rc_mode_giving(const nan_alts *alt, int m, const nan_rec *obs, int flags_too)
{
    if (!(nan_modes[m].mxcsr & RC_BITS))
        return -1;
    for (int mm = 0; alt && mm < NAN_MODE_COUNT; mm++) {
        const nan_rec *r = alt->r[mm];
        uint32_t x = nan_modes[mm].mxcsr ^ nan_modes[m].mxcsr;
        if (r && (x & (RC_BITS | FLUSH_BITS)) == (x & RC_BITS) && (x & RC_BITS) && r->d[0] == obs->d[0] &&
            r->d[1] == obs->d[1] && r->u[0] == obs->u[0] && r->u[1] == obs->u[1] &&
            (!flags_too || (r->flags & 0x3f) == (obs->flags & 0x3f)))
            return mm;
    }
    return -1;
}

static int same_dst(const nan_rec *a, const nan_rec *b)
{
    return a->d[0] == b->d[0] && a->d[1] == b->d[1] && a->u[0] == b->u[0] && a->u[1] == b->u[1];
}

/* A wrong value that is x86's own result under another FTZ/DAZ setting
 * (daz-ftz), another rounding direction (rounding), or both at once (daz-ftz,
 * detail "<cause>, RC too"): 1 and the finding added; else 0. */
static int other_mode(int m, int sel, int bits, int l, int gpr32, uint64_t o, const nan_alts *alt,
                      nan_finding *out, int *n)
{
    char d[80];
    if (alt_gives(alt, m, FLUSH_BITS, sel, bits, l, gpr32, o)) {
        add(out, n, "daz-ftz", mode_cause(m));
        return 1;
    }
    int mm = alt_mode(alt, m, RC_BITS, sel, bits, l, gpr32, o);
    if (mm >= 0) {
        rc_detail(m, mm, d, sizeof d);
        add(out, n, "rounding", d);
        return 1;
    }
    if (alt_gives(alt, m, RC_BITS | FLUSH_BITS, sel, bits, l, gpr32, o)) {
        snprintf(d, sizeof d, "%s, RC too", mode_cause(m));
        add(out, n, "daz-ftz", d);
        return 1;
    }
    return 0;
}

/* F16C ignores the flush modes where they would act on binary16 values:
 * VCVTPS2PH's subnormal half results are not flushed under FTZ, VCVTPH2PS's
 * subnormal half operands are not flushed under DAZ (Intel SDM Vol.1 14.4
 * "Half-Precision Floating-Point Conversion"; measured: the fixture's
 * records of both ops are the same with and without FTZ, and VCVTPH2PS's
 * with and without DAZ).  A runner that flushes them anyway gives a signed
 * zero there: 1 and a daz-ftz finding of its own; else 0.  (A single-
 * precision subnormal operand of VCVTPS2PH is flushed under DAZ, like any
 * other op's: the fixture's daz records.) */
static int f16c_flush(int m, const fmt *sf, const uint64_t *in, int n_in, uint64_t e, uint64_t o,
                      const fmt *df, nan_finding *out, int *n)
{
    uint32_t mx = nan_modes[m].mxcsr;
    if (df == &F16 && (mx & NAN_MXCSR_FTZ) && is_subnormal(df, e) && o == (e & df->sign)) {
        add(out, n, "daz-ftz", "FTZ: a binary16 result flushed (VCVTPS2PH ignores FTZ)");
        return 1;
    }
    if (sf == &F16 && (mx & NAN_MXCSR_DAZ) && n_in == 1 && is_subnormal(sf, in[0]) &&
        o == ((in[0] & sf->sign) ? df->sign : 0)) {
        add(out, n, "daz-ftz", "DAZ: a binary16 operand flushed (VCVTPH2PS ignores DAZ)");
        return 1;
    }
    return 0;
}

/* One destination element that differs: which rule explains it. */
static void classify_float(int k, int m, int l, const uint64_t *in, int n_in, uint64_t e, uint64_t o,
                           const fmt *df, const nan_alts *alt, nan_finding *out, int *n)
{
    const fmt *sf = nan_kind_int_source(nan_ops[k].kind) ? NULL : src_fmt(nan_ops[k].kind);
    int any_nan = 0, all_zero = 1;
    for (int j = 0; sf && j < n_in; j++) {
        any_nan |= is_nan(sf, in[j]);
        all_zero &= is_zero(sf, in[j]);
    }
    char d[64];
    if (f16c_flush(m, sf, in, n_in, e, o, df, out, n))
        return;
    if (other_mode(m, SEL_LANE, df->bits, l, 0, o, alt, out, n))
        return;
    /* the minmax rule for the legacy encodings; a VEX min/max NaN result is
     * judged by the NaN rules below (as since issue 13) */
    int minmax = nan_op_class(k) == C_MINMAX;
    if (minmax && !nan_ops[k].ymm && (any_nan || all_zero)) {
        add(out, n, "minmax", any_nan ? "NaN operand" : "signed zeros");
        return;
    }
    /* MIN/MAX under DAZ returning one of its subnormal operands as it came
     * (x86 compares and returns the flushed zero: Vol.1 10.2.3.4): its own
     * detail, so a known line for it cannot absorb any other wrong min/max
     * value (issue 12 §2; QEMU 7.2 and 10.0 do this) */
    if (minmax && sf && (nan_modes[m].mxcsr & NAN_MXCSR_DAZ))
        for (int j = 0; j < n_in; j++)
            if (o == in[j] && is_subnormal(sf, in[j])) {
                add(out, n, "daz-ftz", "DAZ: min/max returned an operand unflushed");
                return;
            }
    if (is_nan(df, e)) {
        if (!is_nan(df, o)) {
            add(out, n, "nan-propagation", "number instead of NaN");
            return;
        }
        for (int j = 0; sf && j < n_in; j++) {
            if (!is_nan(sf, in[j]))
                continue;
            uint64_t q = nan_convert(sf, df, in[j]);
            if (o == q && e != q) {
                add(out, n, "nan-operand-priority", "");
                return;
            }
            if (is_snan(sf, in[j]) && sf == df && o == in[j]) {
                add(out, n, "snan-quieting", "");
                return;
            }
        }
        if (e == default_nan(df)) {
            if (df->bits == 64)
                snprintf(d, sizeof d, "observed 0x%016llx", (unsigned long long)o);
            else
                snprintf(d, sizeof d, df->bits == 32 ? "observed 0x%08llx" : "observed 0x%04llx",
                         (unsigned long long)o);
            add(out, n, "default-nan", d);
            return;
        }
        add(out, n, "nan-propagation", o == default_nan(df) ? "default NaN instead of operand NaN" : "");
        return;
    }
    if (is_nan(df, o)) {
        add(out, n, any_nan ? "nan-propagation" : "value", "NaN instead of a number");
        return;
    }
    int irc = nan_op_imm_rc(k);
    if (irc >= 0) { /* the immediate's direction, whatever MXCSR.RC says */
        snprintf(d, sizeof d, "imm %s", rc_names[irc]);
        add(out, n, "rounding", d);
        return;
    }
    add(out, n, "value", "");
}

/* What elements above the active ones should have held (upper-lanes detail). */
static const char *upper_detail(int k)
{
    nan_kind kind = nan_ops[k].kind;
    if (nan_ops[k].ymm && nan_ops[k].dst == D_EFLAGS) /* vcomiss: xmm0 is not an operand */
        return "VEX COMIS changed xmm0, which it does not write";
    if (nan_op_mem_dst(k)) /* vcvtps2ph m64 / m128: the bytes beyond the operand */
        return "store wrote beyond its memory operand";
    if (nan_ops[k].ymm && (kind == K_FMA_S32 || kind == K_FMA_S64))
        return "VEX FMA: bits above the scalar not kept from the destination";
    if (nan_ops[k].ymm && nan_ops[k].lanes == 1)
        return "VEX: bits above the scalar not from the first source";
    if (nan_ops[k].ymm) /* vcvtpd2ps ymm, vcvtps2ph...: DEST[MAXVL-1:n] <- 0 */
        return "zeroed destination elements not zero";
    return nan_op_zeroes_upper(k) ? "zeroed destination elements not zero" : "unwritten destination elements changed";
}

int nan_classify_status(int m, const nan_rec *exp, const nan_rec *obs, const nan_alts *alt,
                        nan_finding *out, int n)
{
    char d[80];
    unsigned missing = exp->flags & ~obs->flags & 0x3f, extra = obs->flags & ~exp->flags & 0x3f;
    char names[32];
    if ((missing || extra) && alt_gives(alt, m, FLUSH_BITS, SEL_FLAGS, 0, 0, 0, obs->flags & 0x3fu)) {
        /* the flags x86 raises with the other FTZ/DAZ setting: same root cause */
        snprintf(d, sizeof d, "%s (status flags)", mode_cause(m));
        add(out, &n, "daz-ftz", d);
        return n;
    }
    /* destination and flags both x86's in another rounding direction
     * (cvtpd2dq's IE where the round-to-nearest result is out of range, the
     * PE of -2^31-0.5 rounded to nearest): the rounding cause, the same
     * detail as the values it rounded.  Not a right destination whose flags
     * differ in DE alone: a runner that never sets DE (QEMU) gives that
     * record too wherever an intermediate is denormal in one direction only
     * (dpps), so it says nothing about the direction */
    int mm = missing || extra ? rc_mode_giving(alt, m, obs, 1) : -1;
    if (mm >= 0 && same_dst(exp, obs) && ((missing | extra) & ~0x02u) == 0)
        mm = -1;
    if (mm >= 0) {
        rc_detail(m, mm, d, sizeof d);
        add(out, &n, "rounding", d);
        return n;
    }
    /* one finding per flag: a runner that never sets DE is one root cause */
    for (unsigned b = 0; b < 6; b++) {
        if (!((missing | extra) & (1u << b)))
            continue;
        nan_flag_names(1u << b, names, sizeof names);
        snprintf(d, sizeof d, "%s %s", (missing & (1u << b)) ? "missing" : "spurious", names);
        add(out, &n, "status-flag", d);
    }
    return n;
}

void nan_classify_add(nan_finding *out, int *n, const char *rule, const char *detail)
{
    add(out, n, rule, detail);
}

/* 1 when a VEX.256 op with a floating-point result in bits 255:128 left
 * them all zero where x86 has an element there that is not a signed zero:
 * the op ran as VEX.128 (a translator ignoring VEX.L; Vol.2A 2.3.6: VEX.L = 1
 * selects 256 bits).  Compare masks are left to compare-mask (an all-false
 * upper half is an ordinary wrong compare), and so is a wrong sign of zero. */
static int vex_l_ignored(int k, const nan_rec *exp, const nan_rec *obs)
{
    const nan_op *op = &nan_ops[k];
    int bits = nan_dst_bits(k);
    if (op->ymm != 2 || op->lanes * bits <= 128 || (op->dst != D_F32 && op->dst != D_F64 && op->dst != D_F16) ||
        (obs->u[0] | obs->u[1]) != 0)
        return 0;
    const fmt *f = bits == 64 ? &F64 : bits == 32 ? &F32 : &F16;
    for (int l = 128 / bits; l < op->lanes; l++)
        if (!is_zero(f, lane(exp, bits, l)))
            return 1;
    return 0;
}

/* 1 when op writes no vector register (a GPR or EFLAGS destination: vcomiss,
 * vcvtss2si, vmovmskps), so ymm0 must keep all 256 bits it held. */
static int no_vector_dst(const nan_op *op)
{
    return op->dst == D_EFLAGS || op->dst == D_GPR32 || op->dst == D_GPR64 || op->dst == D_SIGNMASK;
}

/* 1 when a VEX.256 op whose elements fill all 256 bits gave, in bits 255:128,
 * x86's result of the lower lane (its bits 127:0), with bits 127:0 right and
 * every upper element wrong: the upper 128-bit lane computed from the lower
 * lane's sources (a translator splitting the op into two 128-bit halves that
 * reads the low half of each source twice).  The ..Y cases put other operand
 * classes in the two halves of every source (nan_cases.c), so the halves'
 * results differ in most cases.  Only cases whose lower-lane results are
 * pairwise different finite non-zero numbers count: a special value a runner
 * gives for another reason (valgrind's default NaN, an infinity where RC=toward
 * zero gives the largest finite, an all-false compare mask) equals such a
 * lower lane by chance (measured: valgrind 3.19's FMA NaN cases and vdivpd
 * under RC=toward-zero), four or two different ordinary numbers hardly.
 * Compare masks are left to compare-mask. */
static int vex_upper_from_lower(int k, const nan_rec *exp, const nan_rec *obs)
{
    const nan_op *op = &nan_ops[k];
    int bits = nan_dst_bits(k), half = 128 / bits;
    if (op->ymm != 2 || op->lanes * bits != 256 || op->dst == D_MASK32 || op->dst == D_MASK64 ||
        obs->d[0] != exp->d[0] || obs->d[1] != exp->d[1] || obs->u[0] != exp->d[0] || obs->u[1] != exp->d[1])
        return 0;
    const fmt *f = bits == 64 ? &F64 : bits == 32 ? &F32 : &F16;
    for (int l = half; l < 2 * half; l++) {
        uint64_t lo = lane(exp, bits, l - half);
        int special = is_nan(f, lo) || is_zero(f, lo) || (lo & f->exp) == f->exp; /* NaN, +-0, +-inf */
        if (lane(obs, bits, l) == lane(exp, bits, l) || (op->dst != D_BITS32 && op->dst != D_BITS64 && special))
            return 0;
        for (int j = 0; j < l - half; j++)
            if (lane(exp, bits, j) == lo)
                return 0;
    }
    return 1;
}

int nan_classify(int k, int i, int m, const nan_rec *exp, const nan_rec *obs, const nan_alts *alt,
                 nan_finding *out)
{
    int n = 0;
    const nan_op *op = &nan_ops[k];
    if (op->x87) /* x87_ops.def rows */
        return nan_x87_classify(k, i, m, exp, obs, alt, out);
    nan_case c;
    nan_case_get(k, i, &c);
    int bits = nan_dst_bits(k);
    int gpr32 = op->dst == D_GPR32 || op->dst == D_SIGNMASK;
    int total = gpr32 || op->dst == D_GPR64 ? 1 : nan_dst_width(k) / bits;
    /* the VEX.L tests only when no other rounding direction explains the
     * destination: that is the rounding rule's, judged lane by lane below */
    int rc_all = rc_mode_giving(alt, m, obs, 0) >= 0;
    int upper_lost = !rc_all && vex_l_ignored(k, exp, obs);
    if (upper_lost) /* one cause, not one finding per upper lane */
        add(out, &n, "upper-lanes", "VEX.256 result only in bits 127:0 (VEX.L ignored)");
    else if (!rc_all && (upper_lost = vex_upper_from_lower(k, exp, obs)))
        add(out, &n, "upper-lanes", "VEX.256 upper lane computed from the lower lane's sources");
    if (gpr32) {
        if ((exp->d[0] >> 32) != (obs->d[0] >> 32))
            add(out, &n, "upper-lanes", "32-bit GPR write not zero-extended");
        total = 1;
    }
    for (int l = 0; l < (upper_lost ? 128 / bits : total); l++) {
        uint64_t e = lane(exp, bits, l), o = lane(obs, bits, l);
        if (gpr32)
            e &= 0xffffffffu, o &= 0xffffffffu;
        if (e == o)
            continue;
        if (l >= op->lanes) {
            add(out, &n, "upper-lanes", upper_detail(k));
            continue;
        }
        uint64_t in[NAN_MAX_IN];
        int n_in = 0;
        nan_case_inputs(k, &c, l, in, &n_in);
        switch (op->dst) {
        case D_F32: classify_float(k, m, l, in, n_in, e, o, &F32, alt, out, &n); break;
        case D_F64: classify_float(k, m, l, in, n_in, e, o, &F64, alt, out, &n); break;
        case D_F16: classify_float(k, m, l, in, n_in, e, o, &F16, alt, out, &n); break;
        case D_MASK32: case D_MASK64:
            if (!alt_gives(alt, m, FLUSH_BITS, SEL_LANE, bits, l, 0, o))
                add(out, &n, "compare-mask", "");
            else
                add(out, &n, "daz-ftz", mode_cause(m));
            break;
        case D_EFLAGS: add(out, &n, "upper-lanes", "COMIS changed its register operand"); break;
        case D_BITS32: case D_BITS64: { /* no arithmetic: every bit must pass (Vol.2A ANDPS) */
            const fmt *f = bits == 64 ? &F64 : &F32;
            add(out, &n, "bitwise", is_nan(f, e) || is_nan(f, o) ? "NaN payload or sign changed" : "");
            break;
        }
        case D_SIGNMASK: add(out, &n, "sign-mask", ""); break;
        case D_I32: case D_GPR32: case D_GPR64: {
            uint64_t ind = (op->dst == D_GPR64) ? 0x8000000000000000ull : 0x80000000u;
            if (other_mode(m, SEL_LANE, bits, l, op->dst == D_GPR32, o, alt, out, &n))
                break;
            if (e == ind || o == ind)
                add(out, &n, "integer-indefinite", "");
            else
                add(out, &n, "value", "integer result");
            break;
        }
        case D_X87: case D_X87_M32: case D_X87_M64: case D_X87_INT: break; /* nan_x87_classify */
        }
    }
    if (op->ymm != 2 && (exp->u[0] != obs->u[0] || exp->u[1] != obs->u[1])) /* Vol.1 14.1.2: VEX.128 zeroes 255:128 */
        add(out, &n, "upper-lanes",
            no_vector_dst(op) ? "ymm0 bits 255:128 changed by a VEX op that does not write ymm0"
                              : "VEX.128 write did not zero bits 255:128");
    if (exp->s[0] != obs->s[0] || exp->s[1] != obs->s[1])
        add(out, &n, "source-modified", "");
    if (exp->eflags != obs->eflags) {
        if (op->dst == D_EFLAGS && alt_gives(alt, m, FLUSH_BITS, SEL_EFLAGS, 0, 0, 0, obs->eflags))
            add(out, &n, "daz-ftz", mode_cause(m));
        else
            add(out, &n, op->dst == D_EFLAGS ? "comis-eflags" : "eflags-clobbered", "");
    }
    return nan_classify_status(m, exp, obs, alt, out, n);
}
