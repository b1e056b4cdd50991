/* nan_lig.h — the VEX.L = 1 encodings of the scalar VEX ops (guest side only;
 * issue 23 item 3).
 *
 * A scalar VEX instruction ignores VEX.L ("LIG" in the opcode column of Intel
 * SDM Vol.2: VADDSS, VCMPSS, VROUNDSS, VCVTSI2SS, VFMADD132SS ...), so its
 * VEX.L = 1 encoding must give the VEX.L = 0 result.  Assemblers always emit
 * VEX.L = 0 for them, so the probe takes the bytes the assembler made for the
 * row (nan_seq_jit.h nan_op_template), sets the L bit of the VEX prefix (C5:
 * byte 1 bit 2; C4: byte 2 bit 2; Vol.2A 2.3.5) and runs that copy from an
 * executable buffer (nan_table_run_code).  Every op whose props column has
 * P_LIG runs every case so under each MXCSR the caller passes (nan-probe:
 * the first and the last phase's), compared with that phase's own VEX.L = 0
 * records.
 *
 * Isolation: the ops run in a forked child.  A fault the op raises (QEMU and
 * valgrind decode VEX.L = 1 as #UD: SIGILL) is caught there and recorded, and
 * the child goes on with the next op; when the child dies anyway (QEMU aborts
 * on its assertion `!s->vex_l`), the op it was running is the one that killed
 * it, and a new child goes on with the next op.  So one op that kills the
 * emulator is one result naming it, and the rest still run.
 */
#ifndef NAN_LIG_H
#define NAN_LIG_H

#include <stddef.h>

#include "nan_cases.h"

/* One P_LIG op whose VEX.L = 1 encoding deviated. */
typedef struct nan_lig_result {
    int op;           /* nan_ops index */
    int signal;       /* the signal the op raised (caught) or that ended the child running it, else 0 */
    int caught;       /* 1: the op raised `signal` and the child caught it (#UD -> SIGILL) */
    int status;       /* the child's exit status when it exited non-zero, else -1 */
    int differ;       /* cases (over all phases) whose VEX.L = 1 record differs */
    int phase, kase;  /* the first of them: phase index and case index */
    nan_rec l0, l1;   /* its VEX.L = 0 and VEX.L = 1 records */
} nan_lig_result;

typedef struct nan_lig_run {
    int ops;                /* P_LIG ops run (the CPU has their feature) */
    int nres;               /* deviating ones, res[0..nres-1] */
    nan_lig_result *res;    /* allocated by nan_lig_check */
    char skipped[160];      /* non-empty: nothing run, why (no executable memory, fork) */
} nan_lig_run;

/* Runs the check over nphases phases: control[p] the phase's MXCSR control
 * bits, recs[p] its nan_case_total() records (VEX.L = 0).  Never fails: a
 * refused mmap/mprotect/fork is run->skipped. */
void nan_lig_check(int nphases, const uint32_t *control, nan_rec *const *recs, nan_lig_run *run);

#endif
