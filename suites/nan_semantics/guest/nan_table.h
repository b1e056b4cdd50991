/* nan_table.h — executing the case table on x86-64 (guest side only).
 *
 * nan_table_run() is async-signal-safe: no allocation, no stdio, only the
 * inline-asm kernels and stores into the caller's array, so it runs inside
 * signal handlers and forked children.  Each case: LDMXCSR with the given
 * control bits and all status flags clear, load xmm0/xmm1/xmm2/rax/rcx,
 * execute the one instruction, STMXCSR, store the registers.  The compiler
 * sees only asm, so it cannot fold or reorder any operation.
 */
#ifndef NAN_TABLE_H
#define NAN_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "nan_cases.h"

/* 1 when the guest CPU (CPUID as the runner shows it) has op k's feature. */
int nan_table_op_supported(int k);

/* Runs every supported op's cases with MXCSR = control & ~0x3F (status
 * cleared) before each case; out[nan_case_total()].  Unsupported ops' records
 * are zeroed.  Leaves MXCSR = control & ~0x3F. */
void nan_table_run(uint32_t control, nan_rec *out);

/* Runs op k's cases (a NAN_VOP / NAN_YOP row) like nan_table_run, with the
 * instruction at `code` in place of the op's own: a callable snippet, the
 * op's bytes then RET (nan_lig.c: the VEX.L = 1 encoding).  out[nan_case_count(k)].
 * Async-signal-safe as nan_table_run. */
void nan_table_run_code(int k, const void *code, uint32_t control, nan_rec *out);

uint32_t nan_mxcsr_get(void);
void nan_mxcsr_set(uint32_t v);

#endif
