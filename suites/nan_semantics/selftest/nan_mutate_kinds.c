/* nan_mutate_kinds.c — nan-mutate's kind table and its record mutations
 * (nan_mutate.h). */
#include "nan_mutate.h"

#include <string.h>

#include "nan_x87.h"

/* IEEE fields of an element bits wide (16, 32 or 64). */
static uint64_t f_exp(int bits) { return bits == 64 ? 0x7ff0000000000000ull : bits == 32 ? 0x7f800000u : 0x7c00u; }
static uint64_t f_frac(int bits) { return bits == 64 ? 0x000fffffffffffffull : bits == 32 ? 0x007fffffu : 0x03ffu; }
static uint64_t f_qbit(int bits) { return bits == 64 ? 0x0008000000000000ull : bits == 32 ? 0x00400000u : 0x0200u; }
static uint64_t f_sign(int bits) { return 1ull << (bits - 1); }
static int f_nan(int bits, uint64_t x) { return (x & f_exp(bits)) == f_exp(bits) && (x & f_frac(bits)); }
static int f_snan(int bits, uint64_t x) { return f_nan(bits, x) && !(x & f_qbit(bits)); }
static int f_sub(int bits, uint64_t x) { return (x & f_exp(bits)) == 0 && (x & f_frac(bits)); }

/* The record's destination as one 256-bit value (d, then u: NAN_YOP ops'
 * elements run on into bits 255:128), and back. */
static void dst_get(const nan_rec *r, uint64_t v[4]) { v[0] = r->d[0], v[1] = r->d[1], v[2] = r->u[0], v[3] = r->u[1]; }
static void dst_put(nan_rec *r, const uint64_t v[4]) { r->d[0] = v[0], r->d[1] = v[1], r->u[0] = v[2], r->u[1] = v[3]; }

static int src_width(int k) { return nan_kind_f64_source(nan_ops[k].kind) ? 64 : 32; }

static void rec_source(const nan_mut_spec *s, int k, int i, int daz, nan_rec *r)
{
    (void)s, (void)k, (void)i, (void)daz;
    r->s[0] = r->s[1] = 0;
}

static void rec_dirty_upper(const nan_mut_spec *s, int k, int i, int daz, nan_rec *r)
{
    (void)s, (void)k, (void)i, (void)daz;
    r->d[1] = 0xdeadbeefdeadbeefull;
}

/* Every SNaN element of bits 127:0 quieted (elements as wide as the source). */
static void rec_quiet_snan(const nan_mut_spec *s, int k, int i, int daz, nan_rec *r)
{
    (void)s, (void)i, (void)daz;
    int w = src_width(k);
    uint64_t v[4] = {r->d[0], r->d[1], 0, 0};
    for (int l = 0; l < 128 / w; l++)
        if (f_snan(w, nan_elem(v, w, l)))
            nan_elem_set(v, w, l, nan_elem(v, w, l) | f_qbit(w));
    r->d[0] = v[0], r->d[1] = v[1];
}

/* The mask bits of source elements that are -0 or a negative NaN cleared. */
static void rec_signmask(const nan_mut_spec *s, int k, int i, int daz, nan_rec *r)
{
    (void)s, (void)i, (void)daz;
    int w = src_width(k);
    uint64_t v[4] = {r->s[0], r->s[1], 0, 0};
    for (int l = 0; l < 128 / w; l++) {
        uint64_t e = nan_elem(v, w, l);
        if (e == f_sign(w) || (f_nan(w, e) && (e & f_sign(w))))
            r->d[0] &= ~(1ull << l);
    }
}

static void rec_copy(const nan_mut_spec *s, int k, int i, int daz, nan_rec *r)
{
    (void)s, (void)k, (void)i, (void)daz, (void)r; /* the records are FROM's (nan_mutate.c) */
}

static void rec_vex_upper(const nan_mut_spec *s, int k, int i, int daz, nan_rec *r)
{
    (void)s, (void)k, (void)i, (void)daz;
    r->u[0] = nan_ymm_hi_mark[0][0], r->u[1] = nan_ymm_hi_mark[0][1];
}

static void rec_vex_merge(const nan_mut_spec *s, int k, int i, int daz, nan_rec *r)
{
    (void)s, (void)i, (void)daz;
    r->d[1] = nan_vex_dst_mark[1];
    if (src_width(k) == 32)
        r->d[0] = (r->d[0] & 0xffffffffull) | (nan_vex_dst_mark[0] & ~0xffffffffull);
}

/* The bits above a VEX scalar result taken from the second source (b, in
 * xmm2: nan_vex_images) instead of the first (Intel SDM Vol.2A CMPSS "VEX.128
 * encoded version": DEST[127:32] <- SRC1[127:32]). */
static void rec_vex_src2(const nan_mut_spec *s, int k, int i, int daz, nan_rec *r)
{
    (void)s, (void)daz;
    nan_case c;
    nan_case_get(k, i, &c);
    r->d[1] = c.b[1];
    if (nan_dst_bits(k) == 32)
        r->d[0] = (r->d[0] & 0xffffffffull) | (c.b[0] & ~0xffffffffull);
}

static void rec_vex_l(const nan_mut_spec *s, int k, int i, int daz, nan_rec *r)
{
    (void)s, (void)i, (void)daz;
    if (nan_ops[k].dst == D_SIGNMASK) /* vmovmskps/pd .256: only the sign bits of bits 127:0 */
        r->d[0] &= src_width(k) == 64 ? 0x3u : 0xfu;
    else
        r->u[0] = r->u[1] = 0;
}

/* The upper 128-bit lane computed from the lower lane's sources: bits 255:128
 * of the result = bits 127:0 (a translator splitting a VEX.256 op into two
 * halves that reads the low half of each source twice). */
static void rec_upper_from_lower(const nan_mut_spec *s, int k, int i, int daz, nan_rec *r)
{
    (void)s, (void)k, (void)i, (void)daz;
    r->u[0] = r->d[0], r->u[1] = r->d[1];
}

/* vcvtps2ph to memory storing 32 bytes: the bytes beyond its operand become 0. */
static void rec_store_wide(const nan_mut_spec *s, int k, int i, int daz, nan_rec *r)
{
    (void)s, (void)i, (void)daz;
    uint64_t v[4] = {r->d[0], r->d[1], r->u[0], r->u[1]};
    for (int l = nan_ops[k].lanes; l < 256 / 16; l++)
        nan_elem_set(v, 16, l, 0);
    r->d[0] = v[0], r->d[1] = v[1], r->u[0] = v[2], r->u[1] = v[3];
}

/* Every NaN element of the destination becomes the default NaN (sign,
 * exponent and quiet bit set: Intel SDM Vol.1 4.8.3.7). */
static void rec_default_nan(const nan_mut_spec *s, int k, int i, int daz, nan_rec *r)
{
    (void)s, (void)i, (void)daz;
    int bits = nan_dst_bits(k);
    uint64_t v[4];
    dst_get(r, v);
    for (int l = 0; l < nan_dst_width(k) / bits; l++)
        if (f_nan(bits, nan_elem(v, bits, l)))
            nan_elem_set(v, bits, l, f_sign(bits) | f_exp(bits) | f_qbit(bits));
    dst_put(r, v);
}

/* An x87 result that is an SNaN operand quieted goes back to the SNaN. */
static void rec_x87_unquiet(const nan_mut_spec *s, int k, int i, int daz, nan_rec *r)
{
    (void)s, (void)daz;
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

/* Bit 10 of the first destination element flipped where it is a finite
 * non-zero number. */
static void rec_value(const nan_mut_spec *s, int k, int i, int daz, nan_rec *r)
{
    (void)s, (void)i, (void)daz;
    int bits = nan_ops[k].dst == D_F64 ? 64 : 32;
    uint64_t v[4], e;
    dst_get(r, v);
    e = nan_elem(v, bits, 0) & f_exp(bits);
    if (e != 0 && e != f_exp(bits))
        nan_elem_set(v, bits, 0, nan_elem(v, bits, 0) ^ 0x400);
    dst_put(r, v);
}

/* The float elements of an op whose sources are as wide as its destination
 * (f32 or f64): width, else 0 (the lane kinds below leave it alone). */
static int lane_width(int k)
{
    const nan_op *op = &nan_ops[k];
    int bits = op->dst == D_F64 ? 64 : op->dst == D_F32 ? 32 : 0;
    if (!bits || nan_kind_int_source(op->kind) || nan_kind_f16_source(op->kind) || src_width(k) != bits)
        return 0;
    return bits;
}

static int is_minmax(int k) { return strncmp(nan_ops[k].name, "min", 3) == 0 || strncmp(nan_ops[k].name, "max", 3) == 0; }

/* Element l of the destination o given its inputs in[n] (nan_case_inputs),
 * elements bits wide, the phase with DAZ or not: the element to write. */
typedef uint64_t (*lane_fn)(int bits, const uint64_t *in, int n, int daz, uint64_t o);

/* Every active destination element of op k's case i through f (ops whose
 * sources are as wide as their f32/f64 destination only). */
static void each_lane(int k, int i, int daz, nan_rec *r, lane_fn f)
{
    int bits = lane_width(k);
    if (!bits)
        return;
    nan_case c;
    uint64_t v[4];
    nan_case_get(k, i, &c);
    dst_get(r, v);
    for (int l = 0; l < nan_ops[k].lanes; l++) {
        uint64_t in[NAN_MAX_IN];
        int n = 0;
        nan_case_inputs(k, &c, l, in, &n);
        nan_elem_set(v, bits, l, f(bits, in, n, daz, nan_elem(v, bits, l)));
    }
    dst_put(r, v);
}

/* An SNaN operand that x86 returned quieted comes back unquieted. */
static uint64_t lane_unquieted(int bits, const uint64_t *in, int n, int daz, uint64_t o)
{
    (void)daz;
    for (int j = 0; j < n; j++)
        if (f_snan(bits, in[j]) && o == (in[j] | f_qbit(bits)))
            return in[j];
    return o;
}

/* IEEE minNum/maxNum: the first operand, a number, when the second is NaN
 * (x86 returns the second operand), as DAZ makes it: a subnormal read as a
 * signed 0. */
static uint64_t lane_number(int bits, const uint64_t *in, int n, int daz, uint64_t o)
{
    if (n != 2 || !f_nan(bits, in[1]) || f_nan(bits, in[0]))
        return o;
    return daz && f_sub(bits, in[0]) ? in[0] & f_sign(bits) : in[0];
}

/* snan-unquieted: every op but MIN/MAX (which never quiet). */
static void rec_snan_unquieted(const nan_mut_spec *s, int k, int i, int daz, nan_rec *r)
{
    (void)s;
    if (!is_minmax(k))
        each_lane(k, i, daz, r, lane_unquieted);
}

static void rec_minmax_number(const nan_mut_spec *s, int k, int i, int daz, nan_rec *r)
{
    (void)s;
    if (is_minmax(k))
        each_lane(k, i, daz, r, lane_number);
}

/* ST0 (and ST1 of an XT_ST1 row) rounded to nearest-even at the row's
 * precision control (24 / 53 bits), or at 53 bits for a 64-bit row: PC
 * applied to a load (QEMU gitlab #984), a transcendental computed in double
 * (QEMU helper_fsin, FEX #5899).  Finite non-zero values only. */
static void narrow80(uint64_t *f, uint16_t *se, int bits)
{
    uint64_t drop = 64 - (uint64_t)bits, half = 1ull << (drop - 1), low = *f & ((1ull << drop) - 1);
    uint64_t kept = *f >> drop;
    if ((*se & 0x7fff) == 0x7fff || (*se & 0x7fff) == 0 || !(*f >> 63))
        return;
    if (low > half || (low == half && (kept & 1)))
        kept++;
    if (kept >> bits) /* carried out: 1.0 x 2^(e+1) */
        kept >>= 1, *se = (uint16_t)(*se + 1);
    *f = kept << drop;
}

static void rec_x87_narrow(const nan_mut_spec *s, int k, int i, int daz, nan_rec *r)
{
    (void)s, (void)i, (void)daz;
    const nan_x87_op *x = nan_x87_op_of(k);
    int bits = x->pc < 64 ? x->pc : 53;
    if ((x->traits & XT_REDUCE) && (r->s[0] & 0x0400)) /* C2: out of range, the operand left as it was */
        return;
    uint16_t se = (uint16_t)r->d[1];
    narrow80(&r->d[0], &se, bits);
    r->d[1] = se;
    if (x->traits & XT_ST1) {
        uint16_t se1 = (uint16_t)(r->s[0] >> 32);
        narrow80(&r->s[1], &se1, bits);
        r->s[0] = (r->s[0] & ~(0xffffull << 32)) | (uint64_t)se1 << 32;
    }
}

static int op_vex256(int k) { return nan_ops[k].ymm == 2; }        /* elements in bits 255:128 */
static int op_vex(int k) { return nan_ops[k].ymm != 0; }           /* a record with bits 255:128 */
static int op_x87(int k) { return nan_ops[k].x87 != 0; }           /* an x87 result */
static int op_x87_st0(int k) { return nan_ops[k].x87 != 0 && nan_ops[k].dst == D_X87; } /* in ST0 */
/* a VEX.128 scalar op whose second source is an xmm register (vcmpss,
 * vroundsd...): the others have no second source's upper bits to take */
static int op_vex_scalar_two_xmm(int k)
{
    nan_kind kind = nan_ops[k].kind;
    return nan_ops[k].ymm == 1 && nan_ops[k].lanes == 1 &&
           (kind == K_BIN_S32 || kind == K_BIN_S64 || kind == K_UN_S32 || kind == K_UN_S64) &&
           nan_ops[k].dst != D_EFLAGS;
}
static int op_two_lanes(int k) /* elements in both 128-bit lanes */
{
    return nan_ops[k].ymm == 2 && nan_ops[k].lanes * nan_dst_bits(k) == 256;
}
static int op_mem_dst(int k) { return nan_op_mem_dst(k); } /* a store with bytes beyond it */
static int op_float(int k) { return nan_ops[k].dst == D_F32 || nan_ops[k].dst == D_F64; }
static int op_lig(int k) { return (nan_ops[k].props & P_LIG) != 0; } /* a scalar VEX op (VEX.LIG) */

const nan_mut_kind nan_mut_kinds[] = {
    {"source-clobber", NAN_MUT_OP, "OP", "the source register (xmm1) reads 0 after the op (a Rosetta bug "
     "clobbered cvttpd2dq's source)", "source-modified", NULL, rec_source, NULL, 0},
    {"dirty-upper", NAN_MUT_OP, "OP", "destination bits 127:64 keep 0xdeadbeef... instead of the zeros "
     "cvtpd2ps / cvt(t)pd2dq write", "upper-lanes \"zeroed destination elements not zero\"", NULL,
     rec_dirty_upper, NULL, 0},
    {"quiet-snan", NAN_MUT_OP, "OP", "every SNaN destination element quieted (a bitwise op run through "
     "a floating-point path)", "bitwise \"NaN payload or sign changed\"", NULL, rec_quiet_snan, NULL, 0},
    {"signmask-float", NAN_MUT_OP, "OP", "movmskps/pd computed as 'element < 0': -0 and negative NaNs "
     "give 0 bits", "sign-mask", NULL, rec_signmask, NULL, 0},
    {"copy", NAN_MUT_COPY, "FROM:TO", "TO's records replaced by FROM's (same operand cases): roundps.4 "
     "into roundps.1 = immediate ignored", "whatever tells TO from FROM: value, rounding \"imm RC=...\", "
     "precision-control, status-flag", NULL, rec_copy, NULL, 0},
    {"vex-upper-dirty", NAN_MUT_OP, "OP", "a VEX op leaves ymm0 bits 255:128 as they were (its "
     "upper-half marker) instead of zeroing them", "upper-lanes \"VEX.128 write did not zero bits "
     "255:128\" (VEX.256 converts: \"zeroed destination elements not zero\")", op_vex, rec_vex_upper, NULL, 0},
    {"vex-merge-dest", NAN_MUT_OP, "OP", "a VEX scalar op takes the bits above the scalar from the old "
     "destination (the legacy SSE rule), not xmm1", "upper-lanes \"VEX: bits above the scalar not from "
     "the first source\"", op_vex, rec_vex_merge, NULL, 0},
    {"vex-src2-upper", NAN_MUT_OP, "OP", "a VEX.128 scalar op with two xmm sources (vcmpss, vroundsd...) "
     "takes the bits above the scalar from the second source (xmm2) instead of the first (xmm1)",
     "upper-lanes \"VEX: bits above the scalar not from the first source\"", op_vex_scalar_two_xmm,
     rec_vex_src2, NULL, 0},
    {"x87-snan-unquiet", NAN_MUT_OP, "OP", "an x87 op (x87_ops.def) returns an SNaN operand as it is "
     "instead of quieted (Intel SDM Vol.1 Table 4-7)", "snan-quieting \"x87\"", op_x87, rec_x87_unquiet,
     NULL, 0},
    {"x87-narrow", NAN_MUT_OP, "OP", "an x87 op's ST0 (and ST1) result rounded to its row's precision "
     "control, 53 bits for a 64-bit row: PC applied to a load (QEMU gitlab #984: fld_m64_pc24), a "
     "transcendental computed in double (QEMU helper_fsin: fsin)", "precision-control \"PC=24 applied to "
     "an op it does not affect\" / \"64-bit precision computed in 53 bits\"", op_x87_st0, rec_x87_narrow, NULL, 0},
    {"x87-rc-mxcsr", NAN_MUT_NONE, "", "every x87 op computed under the MXCSR RC in effect while it runs, not "
     "its control word's (one host rounding mode for both units, FEX #1665)", "rounding \"x87 rounded under "
     "the MXCSR RC\"", NULL, NULL, nan_mut_doc_x87_rc_mxcsr, 0},
    {"x87-cw", NAN_MUT_TEXT, "PHASE:HEX", "phase PHASE reports x87 control word HEX, e.g. "
     "x87-cw:handler:0x0c7f = a handler that keeps the interrupted word instead of the FNINIT one; "
     "x87-cw:PHASE:none = the field dropped", "handler-x87-cw (context signal_raise)", NULL, NULL,
     nan_mut_doc_x87_cw, 0},
    {"vex-l-ignored", NAN_MUT_OP, "OP", "a VEX.256 op (name .256) run as VEX.128: ymm0 bits 255:128 "
     "zero, the upper elements lost (vmovmskps/pd .256: mask bits 7:4 / 3:2 lost)", "upper-lanes \"VEX.256 result only in bits 127:0 (VEX.L ignored)\"",
     op_vex256, rec_vex_l, NULL, 0},
    {"vex-upper-from-lower", NAN_MUT_OP, "OP", "a VEX.256 op whose elements fill 256 bits computes its "
     "upper 128-bit lane from the lower lane's sources: bits 255:128 of the result = bits 127:0",
     "upper-lanes \"VEX.256 upper lane computed from the lower lane's sources\"", op_two_lanes,
     rec_upper_from_lower, NULL, 0},
    {"store-wide", NAN_MUT_OP, "OP", "vcvtps2ph to memory (vcvtps2ph.m64.*, .m128.*) stores 32 bytes: "
     "the bytes beyond its operand become 0", "upper-lanes \"store wrote beyond its memory operand\"",
     op_mem_dst, rec_store_wide, NULL, 0},
    {"default-nan", NAN_MUT_OP, "OP", "every NaN destination element (f16/f32/f64, the whole ymm0 for "
     "VEX.256) becomes the default NaN: payloads lost (a slow path or a half-precision helper)",
     "nan-propagation \"default NaN instead of operand NaN\"", NULL, rec_default_nan, NULL, 0},
    {"fact-false", NAN_MUT_TEXT, "FACT", "the document's fact FACT (e.g. ymm_fork_inherited) reads "
     "false, as a translator that lost the YMM upper halves across a fork / a thread / VZEROUPPER would "
     "make it", "ymm-upper \"FACT false\"", NULL, NULL, nan_mut_doc_fact_false, 0},
    {"feature-false", NAN_MUT_TEXT, "F[,F...]", "the first listed CPU feature the document says is "
     "present (sse41, fma, avx, f16c) reads false while its ops' records stay, as a runner that hides "
     "a feature from CPUID yet runs its instructions", "probe-failed \"contradiction: features.F false "
     "yet records of OP\"", NULL, NULL, nan_mut_doc_feature_false, 0},
    {"fault-field", NAN_MUT_TEXT, "CASE:FIELD:VALUE", "context faults: field FIELD (signal, si_code, "
     "mxcsr_after, dest, ...) of row CASE of nan_faults.def reads VALUE, as a translator that raises a "
     "fault where none is due, reports another si_code or computes another result would make it",
     "the fault-* rule of that field (fault-spurious, fault-si-code, fault-result, ...)", NULL, NULL,
     nan_mut_doc_fault_field, 0},
    {"snan-unquieted", NAN_MUT_NONE, "", "every op but MIN/MAX returns an SNaN operand unquieted where "
     "x86 returns it quieted (same format)", "snan-quieting only", NULL, rec_snan_unquieted, NULL, 0},
    {"minmax-number", NAN_MUT_NONE, "", "MIN/MAX return the first operand, a number (a subnormal as a "
     "signed 0 under DAZ), when the second is NaN (IEEE minNum/maxNum, not x86's second operand)",
     "minmax \"NaN operand\" only", NULL, rec_minmax_number, NULL, 0},
    {"daz-ignored", NAN_MUT_NONE, "", "the \"daz\" phase computes as if DAZ were off (its records are "
     "the \"default\" phase's)", "daz-ftz \"DAZ\" and \"DAZ (status flags)\" only", NULL, NULL,
     nan_mut_doc_daz_ignored, 0},
    {"lig-died", NAN_MUT_OP, "OP", "OP's VEX.L=1 encoding (OP a P_LIG op) kills the process running it "
     "(SIGILL: an emulator that does not decode it, as valgrind's VROUNDSS)",
     "vex-lig \"VEX.L=1 (LIG) encoding: the process died (SIGILL)\", naming OP", op_lig, NULL,
     nan_mut_doc_lig_died, 0},
    {"rc-ignored", NAN_MUT_NONE, "", "the SSE/AVX ops compute in round-to-nearest in every phase with a "
     "directed MXCSR.RC (their records are those of the same FTZ/DAZ with RC nearest; box64 #4408)",
     "one group: rounding \"MXCSR.RC ignored: the round-to-nearest result\" (no status-flag or upper-lanes)", NULL, NULL,
     nan_mut_doc_rc_ignored, 0},
    {"value", NAN_MUT_OP, "OP", "bit 10 of OP's first destination element flipped wherever it is a "
     "finite non-zero number (an f32/f64 op)", "value, naming OP alone", op_float, rec_value, NULL, 0},
    {"none", NAN_MUT_NONE, "", "nothing: the control run of a mutant self-test (the one kind allowed "
     "to leave the document unchanged)", "none", NULL, NULL, nan_mut_doc_none, 1},
};
const int nan_mut_kind_count = (int)(sizeof nan_mut_kinds / sizeof nan_mut_kinds[0]);

/* The op named by text up to end (NULL: to its end); -1 when none. */
static int op_named(const char *text, const char *end)
{
    char name[64];
    size_t len = end ? (size_t)(end - text) : strlen(text);
    if (len >= sizeof name)
        return -1;
    memcpy(name, text, len);
    name[len] = '\0';
    return nan_op_find(name);
}

int nan_mut_parse(const char *spec, nan_mut_spec *s)
{
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    memset(s, 0, sizeof *s);
    s->op = s->from = -1;
    s->text = colon ? colon + 1 : "";
    for (int i = 0; i < nan_mut_kind_count && !s->kind; i++)
        if (strlen(nan_mut_kinds[i].name) == len && strncmp(spec, nan_mut_kinds[i].name, len) == 0)
            s->kind = &nan_mut_kinds[i];
    if (!s->kind || (s->kind->arg == NAN_MUT_NONE) != !colon)
        return -1;
    if (s->kind->arg == NAN_MUT_COPY) {
        const char *to = strchr(s->text, ':');
        if (!to || (s->from = op_named(s->text, to)) < 0)
            return -1;
        s->op = op_named(to + 1, NULL);
        if (s->op >= 0 && nan_case_count(s->from) != nan_case_count(s->op))
            return -1;
    } else if (s->kind->arg == NAN_MUT_OP) {
        s->op = op_named(s->text, NULL);
    } else {
        return 0;
    }
    return s->op >= 0 && (!s->kind->op_ok || s->kind->op_ok(s->op)) ? 0 : -1;
}
