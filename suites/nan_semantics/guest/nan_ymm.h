/* nan_ymm.h — the YMM upper-half checks of nan-probe's contexts (guest side,
 * x86-64, libc only; docs/nan_semantics.md "YMM upper halves").
 *
 * Every check loads all sixteen YMM registers whole with a pattern of its
 * own (nan_ymm.c), crosses one context boundary inside the same asm block
 * (no compiled code runs in between: every YMM register is caller-saved in
 * the SysV x86-64 ABI 3.2.1, so C code may change them at any call), and
 * stores the sixteen registers again.  Each function returns 1 when what it
 * read is what x86-64 Linux gives, 0 otherwise; the probe records that as a
 * fact whose name starts with "ymm_", which nan-check reports under the rule
 * `ymm-upper` (nan_context_rules.c lists which context checks which fact).
 *
 * Sources of the expectations:
 *   - signal delivery saves the whole XSAVE state (AVX's YMM_Hi128 included)
 *     in the signal frame and sigreturn restores it: Linux
 *     arch/x86/kernel/fpu/signal.c copy_fpstate_to_sigframe() /
 *     __fpu_restore_sig();
 *   - the handler starts with the init state (all YMM bits zero): Linux
 *     arch/x86/kernel/signal.c handle_signal() -> fpu__clear_user_states();
 *   - fork(2) and clone(2) copy the FPU state (arch/x86/kernel/fpu/core.c
 *     fpu_clone()); each thread has its own (context switches save and
 *     restore it: switch_fpu_prepare());
 *   - VZEROUPPER zeroes bits 255:128 of YMM0-15, VZEROALL all their bits;
 *     a VEX.256 op reads all 256 bits; a legacy SSE op keeps bits 255:128
 *     (Intel SDM Vol.1 14.1.2, Vol.2C VZEROUPPER / VZEROALL).
 *
 * Callers must check nan_ymm_available() first (AVX usable: lib bg_cpu). */
#ifndef NAN_YMM_H
#define NAN_YMM_H

/* 1 when AVX is usable (CPUID AVX + OSXSAVE + XCR0 YMM state). */
int nan_ymm_available(void);

/* A SIGUSR2 sent to this thread by a raw syscall while YMM0-15 hold the
 * pattern; the handler (installed with sa_flags, e.g. SA_ONSTACK) stores what
 * it was entered with and returns with every YMM register overwritten.
 * *entry_init: the handler saw all-zero upper halves (the init state);
 * *restored: after sigreturn the sixteen registers are the pattern again.
 * Returns 0, or -1 when the handler did not run before the asm went on. */
int nan_ymm_signal(int sa_flags, int *entry_init, int *restored);

/* VZEROUPPER / VZEROALL: facts[0] vzeroupper zeroes bits 255:128 and keeps
 * 127:0 of all sixteen; facts[1] a VEX.256 vaddps and a legacy addps after it
 * give the IEEE/x86 NaN results in the low lanes and +0 / kept zeros above;
 * facts[2] vzeroall zeroes everything; facts[3] vzeroupper, then a signal
 * whose handler dirties every register: after sigreturn the uppers are the
 * pre-signal zeros again and vaddps ymm reads them as zeros. */
void nan_ymm_vzero(int facts[4]);

/* This thread and a peer thread each hold a pattern of their own in YMM0-15
 * while the other loads its own: 1 when both read their own back (the YMM
 * state is per thread).  0 also on a spin timeout or a failed thread. */
int nan_ymm_thread_private(void);

/* A raw fork(2) while YMM0-15 hold the pattern: 1 when the child and the
 * parent both read it back after the syscall (the child inherits it). */
int nan_ymm_fork(void);

#endif
