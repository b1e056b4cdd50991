/* nan_faults.h — the fault table of context `faults` (nan_faults.def, issue
 * 23 item 4): instructions that must raise #GP (reserved MXCSR bits loaded by
 * LDMXCSR / VLDMXCSR / FXRSTOR, a misaligned m128 operand of a legacy SSE
 * op or of MOVAPS) and forms that must not (VEX arithmetic and MOVUPS with
 * the same misaligned operand), with the signal and state the guest sees.
 * Shared by the probe (guest/nan_fault_probe.c) and the checker
 * (check/nan_fault_check.c).  docs/nan_semantics.md "Faults".
 */
#ifndef NAN_FAULTS_H
#define NAN_FAULTS_H

#include <stdint.h>

#include "nan_cases.h"

#define NAN_SI_KERNEL 0x80            /* Linux's SI_KERNEL: a signal the kernel sent with no address */
#define NAN_FAULT_MXCSR_BEFORE 0x3f80u /* RC = round down, all masked, no flags: every row loads it first */

typedef enum nan_fault_form { FF_M32, FF_M512, FF_M128 } nan_fault_form;
typedef enum nan_fault_cause { FC_RESERVED, FC_MISALIGNED, FC_ALIGN_FREE } nan_fault_cause;
typedef enum nan_fault_dest { FD_XMM0, FD_MEM } nan_fault_dest;

typedef struct nan_fault {
    const char *name, *insn;
    nan_fault_form form;
    nan_fault_cause cause;
    const char *sig;   /* Linux: "SIGSEGV" or "none" */
    int si_code;       /* Linux: NAN_SI_KERNEL, or -1 (no signal) */
    nan_fault_dest dest;
    nan_feat feat;
    uint64_t operand[2], xmm0[2], after[2]; /* low qword first */
    const char *sdm;
} nan_fault;

extern const nan_fault nan_faults[];
extern const int nan_fault_count;

/* The rule ids of context faults' deviation groups (check/nan_fault_check.h
 * says when each applies), NULL-terminated: what a known line may name. */
extern const char *const nan_fault_rules[];

/* Index of the row named name, or -1. */
int nan_fault_find(const char *name);

/* The group detail of a cause: "reserved MXCSR bit set", "m128 operand not
 * 16-byte aligned", "alignment-free form". */
const char *nan_fault_cause_text(nan_fault_cause c);

/* 1 when the row must raise a fault (its sig is not "none"). */
int nan_fault_expected(const nan_fault *f);

/* Whether signal name sig is the one the row expects on the guest's OS
 * ("linux" or "macos", the probe document's "os").  Linux: exactly the
 * row's sig.  macOS (assumed, not measured: Darwin turns the #GP trap,
 * EXC_I386_GPFLT, into EXC_BAD_ACCESS and reports it as SIGSEGV, some
 * releases as SIGBUS): SIGSEGV or SIGBUS for a faulting row. */
int nan_fault_signal_ok(const nan_fault *f, const char *os, const char *sig);

/* 1 when the si_code is judged on that OS (Linux; not macOS, whose si_code
 * for a #GP is not documented). */
int nan_fault_si_code_judged(const char *os);

#endif
