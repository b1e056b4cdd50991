/* nan_context_rules.h — the MXCSR each context must see, per OS.
 *
 * Linux x86-64 (measured natively on the fixture host, and documented):
 *   - a signal handler starts with the initial FPU state, MXCSR 0x1F80
 *     (arch/x86/kernel/signal.c handle_signal() -> fpu__clear_user_states());
 *   - sigreturn restores the interrupted context's MXCSR from the signal frame
 *     (arch/x86/kernel/fpu/signal.c __fpu_restore_sig());
 *   - siglongjmp does not restore MXCSR (glibc sysdeps/x86_64/__longjmp.S
 *     restores rbx, rbp, r12-r15, rsp, rip only), so the handler's value stays;
 *   - clone(2) for threads and fork(2) copy the FPU state (fpu_clone()), so
 *     threads and children inherit MXCSR;
 *   - execve(2) resets it to 0x1F80 (fpu__clear_user_states() via
 *     flush_thread() -> fpu_flush_thread()), and the x87 control word to
 *     0x037F (the FNINIT state): a process starts with both (`initial`).
 * The YMM facts (names "ymm_*", rule ymm-upper; nan_ymm.h has the sources):
 * sigreturn restores the upper halves from the XSAVE signal frame, a handler
 * starts with them zero, fork and threads copy them, each thread has its own,
 * VZEROUPPER / VZEROALL zero them and a signal does not undo that.
 * dispatch_worker (macOS libdispatch worker threads) assumes a new worker
 * starts with 0x1F80 like any new thread (not measured: no macOS host).
 * macOS: the same expectations are assumed (not yet measured; see
 * docs/nan_semantics.md).
 */
#ifndef NAN_CONTEXT_RULES_H
#define NAN_CONTEXT_RULES_H

#include <stdint.h>

typedef struct nan_context_rule {
    const char *context;   /* nan-probe --context value */
    const char *phase;     /* phase name in the probe's output; NULL: facts only */
    uint32_t mxcsr;        /* MXCSR the phase must start with */
    const char *rule;      /* rule id when it does not */
    const char *facts;     /* comma-separated booleans that must be true, or "" */
} nan_context_rule;

/* Phases of a context (main_thread has one per mode and is not listed):
 * returns the number found and points *out at the first. 0: unknown context. */
int nan_context_rules(const char *context, const nan_context_rule **out);

/* Every context name (docs/nan_semantics.md; the tests' NAN_CONTEXTS in
 * CMakeLists.txt), NULL-terminated. */
extern const char *const nan_contexts[];

/* 1 when context is one of nan_contexts. */
int nan_context_known(const char *context);

#endif
