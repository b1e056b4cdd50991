/* nan_x87.h — the x87 table of nan_semantics (issue 13 item 4): operand
 * classes, the control word of a case, the record layout, execution (guest)
 * and classification (checker).  Rows: x87_ops.def, appended to nan_ops[].
 *
 * Record of an x87 op (the 68 hex digits of nan_cases.h, fields reused):
 *   d   D_X87: ST0 after the op as 80 bits, d[0] = significand (bit 63 = the
 *       explicit integer bit J), d[1] bits 15:0 = sign and 15-bit exponent.
 *       D_X87_M32 / M64 / INT: the 8-byte store slot after FST / FIST (a
 *       marker, NAN_X87_SLOT_MARK, where the store did not write).
 *   s   s[0] bits 15:0 = the status word after the op (FNSTSW: IE DE ZE OE
 *       UE PE SF ES C0 C1 C2 TOP C3 B, Intel SDM Vol.1 8.1.3), bits 31:16 =
 *       the control word bits the op changed (FNSTCW after XOR the word
 *       loaded: 0 on x86, and the same in every mode, so the fixture's
 *       other modes stay small); XT_ST1 rows (FSINCOS, FPTAN, FXTRACT):
 *       s[0] bits 47:32 = ST1's sign and exponent, s[1] = ST1's
 *       significand; else s[1] = 0.
 *   flags  status word bits 5:0 (IE DE ZE OE UE PE: the MXCSR order, so the
 *       status-flag rule reads them alike).
 *   eflags FCOMI / FUCOMI: ZF PF CF (Vol.2A FCOMI "Operation"), else the
 *       constant 0x06 of `xor edx,edx` (x87 arithmetic leaves EFLAGS alone).
 * The control word of a case: all six exceptions masked (unmasked ones raise
 * #MF and are not run), precision control from the row (24 / 53 / 64 bits,
 * Vol.1 8.1.5.2), rounding control from the phase's MXCSR RC (the same
 * encoding, Vol.1 8.1.5.3 and 10.2.3.3), so the 16 MXCSR modes give the four
 * x87 rounding directions and the fixture's other modes name a `rounding`
 * deviation as for SSE.  While the op runs MXCSR holds the other RC
 * (nan_x87_mxcsr_during), and while the SSE ops run the x87 control word
 * holds the other RC (nan_x87_cw_during_sse): the two units' rounding
 * controls always differ, so a translator that keeps one host rounding mode
 * for both (FEX #1665) gives another mode's records (issue 23 item 1).
 */
#ifndef NAN_X87_H
#define NAN_X87_H

#include <stdint.h>

#include "nan_cases.h"

#define NAN_X87_CW_DEFAULT 0x037Fu  /* FNINIT: masked, 64-bit precision, nearest (Vol.1 8.1.5) */
#define NAN_X87_CW_WRITTEN 0x0C7Fu  /* the contexts' write: 24-bit precision, toward zero */
#define NAN_X87_SLOT_MARK 0x5a5a5a5a5a5a5a5aull

/* The columns of x87_ops.def beyond nan_op (see its header). */
typedef enum nan_x87_pc_rule { X_PC_ROUNDS, X_PC_EXACT } nan_x87_pc_rule;
enum { XT_EFLAGS = 1, XT_COPY = 2, XT_ST1 = 4, XT_REDUCE = 8, XT_DOM1 = 16, XT_DOMP1 = 32 };
typedef struct nan_x87_op {
    int mem;                 /* memory operand bits: 16, 32, 64, 80; 0 = none */
    int pc;                  /* precision control of the row: 24, 53, 64 */
    nan_x87_pc_rule pc_rule; /* X_PC_ROUNDS: Vol.1 8.1.5.2 applies */
    unsigned traits;         /* XT_* */
    int vendor_bits;         /* vendor-defined low significand bits of a finite result */
} nan_x87_op;
/* Row of op k (an x87 op: nan_ops[k].x87 != 0), else NULL. */
const nan_x87_op *nan_x87_op_of(int k);

/* Cases of an x87 kind (K_X87_BIN: 18 x 18 pairs; K_X87_UN: 34 values;
 * K_X87_CONST: 1; K_X87_ILD: 12 integers, the low 16 / 32 bits read by
 * FILD m16 / m32). */
int nan_x87_case_count(nan_kind kind);

/* Operands of case i: a[0..1] = the first operand as 80 bits (a[1] bits
 * 15:0: sign and exponent), b the second (K_X87_UN: 1.0). */
void nan_x87_case_get(nan_kind kind, int i, nan_case *c);

/* The control word case records of op k run with under MXCSR `mxcsr`. */
uint16_t nan_x87_cw(int k, uint32_t mxcsr);
/* The MXCSR in effect while an x87 op runs in mode `mxcsr`: its RC
 * replaced by the other direction (RC xor 3: nearest <-> toward zero, down
 * <-> up); and the x87 control word while the SSE ops run (0x037F with RC
 * xor 3 of the mode's). */
uint32_t nan_x87_mxcsr_during(uint32_t mxcsr);
uint16_t nan_x87_cw_during_sse(uint32_t mxcsr);

/* ---- guest (nan_x87_table.c) ---- */
uint16_t nan_x87_cw_get(void);
void nan_x87_cw_set(uint16_t cw);
/* Runs case c of x87 op k under MXCSR control bits mx into *out. */
void nan_x87_run(int k, const nan_case *c, uint32_t mx, nan_rec *out);

/* ---- checker (nan_x87_classify.c) ---- */
/* nan_classify() for an x87 op (same contract, nan_classify.h): rules
 * snan-quieting, default-nan (the x87 indefinite FFFF C000000000000000),
 * nan-operand-priority (larger significand, Vol.1 Table 4-7), nan-propagation,
 * unsupported-encoding (pseudo-NaN, pseudo-infinity, unnormal: #IA, Vol.1
 * 8.2.2), precision-control (a result wider than the row's precision; PC
 * applied to an X_PC_EXACT row), rounding (detail "x87 rounded under the
 * MXCSR RC, ..." when the fixture's record under the MXCSR RC in effect
 * matches), integer-indefinite, value (an out-of-range operand of an
 * XT_REDUCE row; beyond the vendor bits), x87-status (SF C0-C3; C1 not for
 * a result within the vendor bits), x87-control, fcomi-eflags, status-flag.
 * XT_ST1 rows: ST1 judged like ST0.  Cases outside an XT_DOM1 / XT_DOMP1
 * domain: no finding. */
struct nan_finding;
struct nan_alts;
int nan_x87_classify(int k, int i, int m, const nan_rec *exp, const nan_rec *obs,
                     const struct nan_alts *alt, struct nan_finding *out);

/* Context rules for the x87 control word (checker).  Linux x86-64: a signal
 * handler starts with the FNINIT state, control word 0x037F
 * (arch/x86/kernel/signal.c handle_signal() -> fpu__clear_user_states()
 * loads init_fpstate, whose fcw fpstate_init_fxstate() sets to 0x37f);
 * sigreturn restores the interrupted one (arch/x86/kernel/fpu/signal.c
 * __fpu_restore_sig()); threads and fork copy it (fpu_clone()); execve
 * resets it (fpu_flush_thread()).  The probe writes the x87 word W together
 * with MXCSR W, so a phase must start with NAN_X87_CW_WRITTEN exactly where
 * its MXCSR rule wants NAN_MXCSR_WRITTEN, else with the default (main_thread's
 * mode phases, fixed_mode >= 0: always the default, the probe never writes
 * it there). */
uint16_t nan_x87_cw_want(uint32_t mxcsr_want, int fixed_mode);
/* The x87 rule beside an MXCSR context rule: handler-mxcsr ->
 * handler-x87-cw, mxcsr-inheritance -> x87-cw-inheritance, mxcsr-readback ->
 * x87-cw-readback, mxcsr-initial -> x87-cw-initial. */
const char *nan_x87_cw_rule(const char *mxcsr_rule);
/* "x87 control word differs in PC RC masks" into buf. */
void nan_x87_cw_diff(uint16_t want, uint16_t got, char *buf, unsigned n);

/* 1 when the 80-bit value (sign/exponent se, significand f) is a NaN / an
 * SNaN (J set, exponent all ones, fraction non-zero; quiet bit 62). */
int nan_x87_is_nan(uint16_t se, uint64_t f);
int nan_x87_is_snan(uint16_t se, uint64_t f);

#endif
