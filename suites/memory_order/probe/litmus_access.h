/* litmus_access.h — how a litmus thread body reads, writes and fences, per
 * access (C11 <stdatomic.h>, ISO/IEC 9899:2011 7.17).
 *
 *   plain  relaxed atomics: the plain MOV (x86-64) / LDR, STR (arm64) a
 *          compiler emits for ordinary loads and stores.
 *   tso    acquire loads, release stores: the accessors a translator's
 *          "ordered" mode emits; MOV on x86-64, LDAR (LDAPR with +rcpc) and
 *          STLR on arm64.
 *   sc     seq_cst loads and stores (x86-64 store = XCHG; arm64 LDAR/STLR).
 *   fences a test names (SB+mfences) are atomic_thread_fence(seq_cst):
 *          on x86-64 GCC 12 emits "lock orq $0,(%rsp)" (a full barrier like
 *          MFENCE: Intel SDM Vol.3A 9.2.2, locked instructions order loads
 *          and stores), other compilers MFENCE; DMB ISH on arm64.
 * Two mutants exist only so that the self-tests can prove the checks fail:
 *   mutant-drop-fence   plain accesses, fences removed;
 *   mutant-tso-relaxed  the tso access with relaxed atomics.
 * Every access is followed by a compiler-only barrier (atomic_signal_fence)
 * so that the compiler keeps program order: the hardware (or the
 * translator) is what is being tested.
 */
#ifndef LITMUS_ACCESS_H
#define LITMUS_ACCESS_H

#include <stdatomic.h>
#include <stdint.h>

typedef enum litmus_access {
    LITMUS_ACC_PLAIN = 0,
    LITMUS_ACC_TSO,
    LITMUS_ACC_SC,
    LITMUS_ACC_DROP_FENCE,  /* mutant */
    LITMUS_ACC_TSO_RELAXED, /* mutant */
    LITMUS_ACC_COUNT
} litmus_access;

/* "plain", "tso", "sc", "mutant-drop-fence", "mutant-tso-relaxed". */
const char *litmus_access_name(litmus_access a);

/* Parses one of the names above; -1 when unknown. */
int litmus_access_parse(const char *name);

#define LITMUS_CF() atomic_signal_fence(memory_order_seq_cst)

#define LITMUS_LD(A, p)                                                                   \
    ((int)(A) == (int)LITMUS_ACC_TSO ? atomic_load_explicit((p), memory_order_acquire)             \
     : (int)(A) == (int)LITMUS_ACC_SC ? atomic_load_explicit((p), memory_order_seq_cst)             \
                        : atomic_load_explicit((p), memory_order_relaxed))

/* Register k of the current instance i := load of p. */
#define LITMUS_LDR(A, k, p)                                                               \
    do {                                                                              \
        r->reg[(k)][i] = LITMUS_LD(A, (p));                                               \
        LITMUS_CF();                                                                      \
    } while (0)

#define LITMUS_ST(A, p, v)                                                                \
    do {                                                                              \
        if ((int)(A) == (int)LITMUS_ACC_TSO)                                                        \
            atomic_store_explicit((p), (v), memory_order_release);                    \
        else if ((int)(A) == (int)LITMUS_ACC_SC)                                                    \
            atomic_store_explicit((p), (v), memory_order_seq_cst);                    \
        else                                                                          \
            atomic_store_explicit((p), (v), memory_order_relaxed);                    \
        LITMUS_CF();                                                                      \
    } while (0)

#define LITMUS_MFENCE(A)                                                                  \
    do {                                                                              \
        if ((int)(A) != (int)LITMUS_ACC_DROP_FENCE)                                                 \
            atomic_thread_fence(memory_order_seq_cst);                                \
        LITMUS_CF();                                                                      \
    } while (0)

#endif
