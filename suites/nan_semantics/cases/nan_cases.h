/* nan_cases.h — the case table of the NaN probe: ops, operands, MXCSR modes.
 *
 * Shared by the guest probe (which executes the cases) and the checker (which
 * rebuilds each case's operands to classify a deviation), so both always agree
 * on what case i of op k is.  nan_case_table_digest() fingerprints the whole
 * table; the fixture stores it, so a fixture made from another table is
 * rejected instead of being compared case by case.
 *
 * Operand classes per width (f32 / f64 bit patterns): +-0, +-smallest and
 * +-largest subnormal, +-smallest normal, +-1, +-max finite, +-inf, QNaNs and
 * SNaNs of both signs with different payloads (IEEE 754-2008 6.2.1: the
 * most significant fraction bit set = quiet).  Unary ops and conversions add
 * rounding/overflow values (1.5, -2.5, 0.5, +-2^31, +-2^63, 1/3, 1e300...).
 *
 * Record (one per case, what the probe prints): 68 hex digits =
 *   destination after the instruction (128 bits, lane 3 first; GPR
 *   destinations: the 64-bit register in the low half, upper half 0),
 *   source xmm1 after (128 bits; GPR sources: rcx),
 *   MXCSR status flags after (bits 0-5: IE DE ZE OE UE PE; Intel SDM Vol.1
 *   10.2.3), EFLAGS after (this suite's packing: bit0 CF, bit1 PF, bit2 ZF,
 *   bit3 SF, bit4 OF; set to ZF=PF=1 by `xor edx,edx` before each case so
 *   instructions that leave EFLAGS alone give a constant 0x06).
 */
#ifndef NAN_CASES_H
#define NAN_CASES_H

#include <stddef.h>
#include <stdint.h>

/* Operand layouts.  Issue 13 added: K_UN_P32LO (two f32 in the low qword:
 * cvtps2pd), K_CVTI_P64 (f64 pairs incl. the int32 conversion limits:
 * cvt(t)pd2dq), K_I2F_P32 / K_I2F_P32LO (four / two int32 lanes: cvtdq2ps,
 * cvtdq2pd), K_HADD64 (haddpd/hsubpd: pairs (a0,a1) (b0,b1)), K_DP32 /
 * K_DP64 (dpps/dppd: one operand pair per case, 1.0 x 1.0 in the other lanes),
 * K_FMA_S32 / K_FMA_S64 (scalar FMA: one triple per case, the 343 triples).
 * VEX.256 (vex256, NAN_YOP rows): the ..Y kinds are the same operand classes
 * over 256-bit sources (8 f32 / 4 f64 / 8 int32 lanes per case, bits 255:128
 * in a[2..3], b[2..3], c[2..3]); K_UN_P32X: four f32 of an xmm source for a
 * ymm result (vcvtps2pd ymm).  F16C: K_H2F / K_H2FY (four / eight binary16
 * values of the half class, vcvtph2ps xmm / ymm), K_F2H / K_F2HY (four / eight
 * f32 of the single-to-half class, vcvtps2ph from xmm / ymm).  Unary VEX.256
 * and F16C kinds hold the operand in a and b alike, so the op reads ymm1 and
 * the record's source field is its source after the op; so do the NAN_VOP
 * rows (vex128) of K_UN_P32/P64, K_UN_P32LO, K_CVTI_P64, K_I2F_P32(LO) and
 * K_CVT2I_32/64 (a's bits 127:0 a copy of b's: vsqrtps, vcvt*, vmovmsk).
 * K_DP32Y (vdpps
 * ymm: one operand pair in a lane of each 128-bit half per case, 1.0 x 1.0 in
 * the others), K_HADDY / K_HADD64Y (vhadd/vhsub ps / pd ymm: the pair feeding
 * destination element l sits where that lane's instruction reads it). */
typedef enum nan_kind {
    K_BIN_S32, K_BIN_S64, K_BIN_P32, K_BIN_P64, K_UN_S32, K_UN_S64, K_UN_P32, K_UN_P64,
    K_CVT2I_32, K_CVT2I_64, K_I2F_32, K_I2F_64, K_HADD, K_FMA_P32, K_FMA_P64,
    K_UN_P32LO, K_CVTI_P64, K_I2F_P32, K_I2F_P32LO, K_HADD64, K_DP32, K_DP64, K_FMA_S32, K_FMA_S64,
    K_BIN_P32Y, K_BIN_P64Y, K_UN_P32Y, K_UN_P64Y, K_FMA_P32Y, K_FMA_P64Y, K_I2F_P32Y, K_CVTI_P64Y,
    K_UN_P32X, K_H2F, K_H2FY, K_F2H, K_F2HY, /* VEX.256 and F16C (issue 13 item 1) */
    K_DP32Y, K_HADDY, K_HADD64Y, /* vdpps / vhadd(sub)ps / vhadd(sub)pd .256 (vex256 block 2) */
    K_X87_BIN, K_X87_UN, K_X87_LD32, K_X87_LD64, /* x87_ops.def, nan_x87.h (issue 13 item 4) */
    K_X87_CONST, K_X87_ILD /* x87: no operand (FLD1, FLDPI...), an integer from memory (FILD): issue 23 */
} nan_kind;

/* Destination kinds.  D_BITS32/D_BITS64: a bitwise op (andps...), compared
 * bit for bit, NaN payloads and signs included; D_SIGNMASK: movmskps/pd's
 * sign-bit mask in eax (zero-extended into rax); D_F16: IEEE binary16
 * elements (vcvtps2ph). */
typedef enum nan_dst {
    D_F32, D_F64, D_I32, D_MASK32, D_MASK64, D_EFLAGS, D_GPR32, D_GPR64, D_BITS32, D_BITS64,
    D_SIGNMASK, D_F16,
    D_X87, D_X87_M32, D_X87_M64, D_X87_INT /* x87: ST0 (80 bits), a stored f32 / f64 / integer */
} nan_dst;

typedef enum nan_feat { F_NONE, F_SSE41, F_FMA, F_AVX, F_F16C, F_COUNT } nan_feat;

/* A feature's key in the probe document's "features" object ("sse41", "fma",
 * "avx", "f16c"), the one list the probe writes and nan-check reads; NULL for
 * F_NONE. */
const char *nan_feat_name(nan_feat f);

/* Op classes: the first half of an op family's name (nan_family.h,
 * "<class>-<shape>": minmax-ps), and what the classifier needs to know of an
 * op's semantics (C_MINMAX: MINxx/MAXxx return the second operand when either
 * is a NaN or both are zeros, Intel SDM Vol.2B MINPS).  C_NONE: the family is
 * named after the op's mnemonic (x87_ops.def rows, which set no class yet). */
typedef enum nan_class {
    C_NONE, C_ARITH, C_MINMAX, C_CMP, C_COMI, C_SQRT, C_ROUND, C_F16C, C_CVT, C_HADD, C_FMA,
    C_DPPS, C_DPPD, C_ANDPS, C_ANDNPS, C_ORPS, C_XORPS, C_ANDPD, C_ANDNPD, C_ORPD, C_XORPD,
    C_MOVMSKPS, C_MOVMSKPD, C_COUNT
} nan_class;

/* The props column of nan_ops.def / x87_ops.def: one nan_class, OR-ed with
 * named property bits (issue 23 item 7: every property the probe and the
 * checker use is a column, never parsed from the op's name):
 *   P_RC_IMM(d)   the instruction's immediate selects rounding direction d
 *                 (0 nearest, 1 down, 2 up, 3 toward zero) whatever MXCSR.RC
 *                 says (imm8 bit 2 clear: Vol.2B ROUNDPS Table 4-18, Vol.2A
 *                 VCVTPS2PH Table 5-3); without it the op rounds by MXCSR.RC
 *   P_ZERO_UPPER  writes zeros to the destination elements above its `lanes`
 *                 (cvtpd2ps, cvt(t)pd2dq: bits 127:64, Vol.2A CVTPD2PS); else
 *                 a legacy op leaves them as they were
 *   P_MEM_DST     stores to memory (vcvtps2ph m64 / m128: the record's
 *                 destination is the 32 bytes the store went into)
 *   P_VENDOR_NAN  with two NaN intermediate results the NaN returned differs
 *                 between vendors (dpps/dppd: the order of the additions), so
 *                 generated sequences leave the op out (nan_seq.h)
 *   P_LIG         a scalar VEX op whose VEX.L bit is ignored ("LIG" in the
 *                 opcode column of Intel SDM Vol.2): VEX.L = 1 must give the
 *                 VEX.L = 0 result (issue 23 item 3)
 * For x87_ops.def rows (NAN_XOP sets 0 until its rows carry the column):
 *   P_INT(n)      an integer store of n bits (16, 32, 64: FIST m16 / m32,
 *                 FISTP m64)
 *   P_EFLAGS_OUT  writes EFLAGS (FCOMI, FUCOMI)
 *   P_EXACT_LOAD  loads its operand bit for bit, unsupported encodings too
 *                 (FLD m80) */
#define P_CLASS_MASK 0x3fu
#define P_RC_IMM(d) (0x40u | ((unsigned)(d) & 3u) << 7)
#define P_ZERO_UPPER 0x200u
#define P_MEM_DST 0x400u
#define P_VENDOR_NAN 0x800u
#define P_LIG 0x1000u
#define P_INT(n) ((n) == 16 ? 0x2000u : (n) == 32 ? 0x4000u : (n) == 64 ? 0x6000u : 0u)
#define P_INT_MASK 0x6000u
#define P_EFLAGS_OUT 0x8000u
#define P_EXACT_LOAD 0x10000u

/* nan_ops.def rows: NAN_OP (legacy SSE, and the packed FMA of the first table:
 * 128-bit records) and NAN_VOP (VEX.128 forms, issue 13 item 2: YMM records,
 * see nan_vex_images) and NAN_YOP (VEX.256 forms and F16C, vex256: as NAN_VOP,
 * the destination elements run on into bits 255:128). */
typedef struct nan_op {
    const char *name;
    nan_kind kind;
    nan_dst dst;
    int lanes;     /* active destination elements (NAN_YOP: of the whole ymm0) */
    nan_feat feat;
    int ymm;       /* 1: NAN_VOP, 2: NAN_YOP; both: the record carries ymm0 bits 255:128 */
    int x87;       /* x87_ops.def rows: the precision control, 24, 53 or 64 bits; else 0 */
    unsigned props; /* the props column: a nan_class | P_... bits (above) */
} nan_op;

/* Op k's class, and the class's name ("minmax", "arith"...; "" for C_NONE). */
nan_class nan_op_class(int k);
const char *nan_class_name(nan_class c);

/* The rounding direction op k's immediate selects (P_RC_IMM: 0-3), or -1 when
 * the op has none or takes MXCSR.RC. */
int nan_op_imm_rc(int k);

/* Bits of op k's integer store (P_INT: 16, 32 or 64), or 0. */
int nan_op_int_bits(int k);

/* Operands.  [0..1] bits 127:0 (low qword first), [2..3] bits 255:128: the
 * case's values for the ..Y kinds, else the upper-half marker of the YMM
 * register the operand is loaded into (nan_vex_images). */
typedef struct nan_case {
    uint64_t a[4]; /* xmm0 before (low qword first); a[0] also goes to rax */
    uint64_t b[4]; /* xmm1 before; b[0] also goes to rcx */
    uint64_t c[4]; /* xmm2 before (FMA third source) */
} nan_case;

#define NAN_REC_HEX 68       /* hex digits per record */
#define NAN_REC_HEX_YMM 100  /* NAN_VOP ops: ymm0 bits 255:128 (32 digits) first */
#define NAN_EFLAGS_CF 0x01
#define NAN_EFLAGS_PF 0x02
#define NAN_EFLAGS_ZF 0x04
#define NAN_EFLAGS_SF 0x08
#define NAN_EFLAGS_OF 0x10

typedef struct nan_rec {
    uint64_t u[2];   /* NAN_VOP ops: ymm0 bits 255:128 after (low qword first); else 0 */
    uint64_t d[2];
    uint64_t s[2];
    uint8_t flags;   /* MXCSR bits 0-5 */
    uint8_t eflags;  /* packed as above */
} nan_rec;

extern const nan_op nan_ops[];
extern const int nan_op_count;
/* Upper bound of nan_op_count, for arrays indexed by op (nan_cases.c checks
 * it at compile time: raise it when the tables outgrow it). */
#define NAN_OP_MAX 1024

/* Number of cases of op k (fixed by its kind). */
int nan_case_count(int k);

/* Offset of op k's first record in a table run (records of ops 0..k-1). */
size_t nan_case_offset(int k);

/* Records in one table run: nan_case_offset(nan_op_count). */
size_t nan_case_total(void);

/* Operands of case i of op k. */
void nan_case_get(int k, int i, nan_case *c);

/* Which f32/f64 element of an operand a lane's pair/triple came from, for
 * classification: fills in[0..n_in-1] with the operand element bits feeding
 * destination element `lane` (width bits each; n_in 1..NAN_MAX_IN: 8 for
 * dpps, whose every lane depends on all eight source elements). */
#define NAN_MAX_IN 8
void nan_case_inputs(int k, const nan_case *c, int lane, uint64_t in[NAN_MAX_IN], int *n_in);

/* 1 when op k has P_ZERO_UPPER / P_MEM_DST (nan_ops.def's props column). */
int nan_op_zeroes_upper(int k);
int nan_op_mem_dst(int k);

/* 1 when kind k's sources are integers (cvtsi2*, cvtdq2*). */
int nan_kind_int_source(nan_kind k);

/* 1 when kind k's floating-point sources are f64 (else f32 or integer). */
int nan_kind_f64_source(nan_kind k);

/* 1 when kind k's sources are binary16 (vcvtph2ps). */
int nan_kind_f16_source(nan_kind k);

/* Bits of one destination element of op k (16, 32 or 64; 64 for GPR and
 * EFLAGS destinations), and the destination width the record holds: 256 for
 * NAN_YOP ops (bits 255:128 in the record's u), else 128. */
int nan_dst_bits(int k);
int nan_dst_width(int k);

/* Element l (bits wide: 16, 32 or 64) of a 256-bit value v[4], low qword
 * first. */
uint64_t nan_elem(const uint64_t v[4], int bits, int l);
/* Sets element l (bits wide) of v[4] to the low bits of x. */
void nan_elem_set(uint64_t v[4], int bits, int l, uint64_t x);

/* FNV-1a 64 over every op name and every case's operands. */
uint64_t nan_case_table_digest(void);

/* FNV-1a 64: h (start with NAN_FNV64_START) advanced over the n bytes at p. */
#define NAN_FNV64_START 0xcbf29ce484222325ull
uint64_t nan_fnv64(uint64_t h, const void *p, size_t n);

/* Index of the op called name, or -1. */
int nan_op_find(const char *name);

/* ---- MXCSR modes: RC x FTZ x DAZ (Intel SDM Vol.1 10.2.3) ---- */
#define NAN_MXCSR_DEFAULT 0x1F80u  /* all exceptions masked, RN, no FTZ/DAZ */
#define NAN_MXCSR_FTZ 0x8000u
#define NAN_MXCSR_DAZ 0x0040u
#define NAN_MXCSR_RC_SHIFT 13
#define NAN_MODE_COUNT 16

typedef struct nan_mode {
    const char *name;  /* "default", "ftz", "daz", "ftz_daz", "rd", "ftz_daz_rz", ... */
    uint32_t mxcsr;
    int base;          /* 1: in the default (non-long) set */
} nan_mode;

extern const nan_mode nan_modes[NAN_MODE_COUNT];

/* The mode the context tests write (FTZ+DAZ+round toward zero, 0xFFC0):
 * every control field differs from the default, so inheritance is visible. */
#define NAN_MXCSR_WRITTEN 0xFFC0u

/* Mode index by name or by MXCSR control bits (status bits ignored); -1. */
int nan_mode_find(const char *name);
int nan_mode_by_mxcsr(uint32_t mxcsr);

/* The mode a fixture stores mode m as a difference against: the same FTZ/DAZ
 * with round-to-nearest, or "default" for the four FTZ/DAZ modes. */
int nan_mode_base(int m);

/* Hex digits of one record of op k: NAN_REC_HEX, or NAN_REC_HEX_YMM for a
 * NAN_VOP op (ymm0 bits 255:128, then the NAN_REC_HEX digits). */
int nan_rec_hex(int k);

/* Encodes/decodes one record of op k as nan_rec_hex(k) hex digits (no NUL
 * written by encode).  decode returns 0 on success, -1 on a non-hex digit. */
void nan_rec_encode(int k, const nan_rec *r, char *out);
int nan_rec_decode(int k, const char *in, nan_rec *r);

/* ---- VEX ops (NAN_VOP, NAN_YOP): the register images loaded before the op ----
 * (NAN_YOP ops: the operands' bits 255:128 are their a/b/c[2..3], case
 * values of the ..Y kinds; the markers below for the others.)
 * Every YMM register's bits 255:128 hold a marker of its own
 * (nan_ymm_hi_mark[r]) so a VEX.128 write that does not zero them (Intel SDM
 * Vol.1 14.1.2: "VEX.128 ... zeroes bits 255:128") shows.  FMA kinds: ymm0 =
 * a (the destination is an input), ymm1 = b, ymm2 = c.  Others: ymm0 =
 * nan_vex_dst_mark (the old destination, which a VEX op must not merge:
 * vaddss xmm0, xmm1, xmm2 takes bits 127:32 from xmm1), ymm1 = a (first
 * source), ymm2 = b (second source), ymm3 = c.  img[r] = ymm r, 4 qwords low
 * first. */
extern const uint64_t nan_vex_dst_mark[2];
extern const uint64_t nan_ymm_hi_mark[4][2];
void nan_vex_images(nan_kind kind, const nan_case *c, uint64_t img[4][4]);

/* 1 when two records hold the same bits (fields only, not padding). */
int nan_rec_equal(const nan_rec *x, const nan_rec *y);

#endif
