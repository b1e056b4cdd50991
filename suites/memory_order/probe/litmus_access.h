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

/* Locked read-modify-writes (litmus_catalog.h LITMUS_OP_XCHG...): on x86-64
 * the instructions themselves (XCHG, LOCK ADD, LOCK XADD, LOCK CMPXCHG, 8
 * bytes; they need no alignment: a SPLIT location straddles a line and is a
 * split lock); elsewhere C11 seq_cst atomics.  Every access runs them as is;
 * the mutant drop-fence replaces each by a plain load and store (not atomic,
 * no fence), so the self-tests can show lost updates and store buffering.
 * K scales values (1, or LITMUS_SPLIT_K in SPLIT tests); results stay
 * scaled (the tally decodes them). */
#define LITMUS_DROP(A) ((int)(A) == (int)LITMUS_ACC_DROP_FENCE)
static inline uint64_t litmus_rmw_plain(_Atomic uint64_t *p, int kind, uint64_t v, uint64_t e)
{
    uint64_t old = atomic_load_explicit(p, memory_order_relaxed);
    uint64_t nv = kind == 1 ? old + v : kind == 2 ? (old == e ? v : old) : v;
    atomic_store_explicit(p, nv, memory_order_relaxed);
    return old;
}
#if defined(__x86_64__)
static inline uint64_t litmus_xchg(_Atomic uint64_t *p, uint64_t v)
{
    __asm__ __volatile__("xchgq %0, %1" : "+r"(v), "+m"(*(uint64_t *)p) : : "memory");
    return v;
}
static inline void litmus_lock_add(_Atomic uint64_t *p, uint64_t v)
{
    __asm__ __volatile__("lock addq %1, %0" : "+m"(*(uint64_t *)p) : "r"(v) : "memory", "cc");
}
static inline uint64_t litmus_xadd(_Atomic uint64_t *p, uint64_t v)
{
    __asm__ __volatile__("lock xaddq %0, %1" : "+r"(v), "+m"(*(uint64_t *)p) : : "memory", "cc");
    return v;
}
static inline uint64_t litmus_cmpxchg(_Atomic uint64_t *p, uint64_t e, uint64_t v)
{
    __asm__ __volatile__("lock cmpxchgq %2, %1" : "+a"(e), "+m"(*(uint64_t *)p) : "r"(v) : "memory", "cc");
    return e;
}
#else
static inline uint64_t litmus_xchg(_Atomic uint64_t *p, uint64_t v) { return atomic_exchange(p, v); }
static inline void litmus_lock_add(_Atomic uint64_t *p, uint64_t v) { atomic_fetch_add(p, v); }
static inline uint64_t litmus_xadd(_Atomic uint64_t *p, uint64_t v) { return atomic_fetch_add(p, v); }
static inline uint64_t litmus_cmpxchg(_Atomic uint64_t *p, uint64_t e, uint64_t v)
{
    atomic_compare_exchange_strong(p, &e, v);
    return e;
}
#endif
/* r->reg[k][i] := result, unless k < 0 (result not kept). */
#define LITMUS_KEEP(k, val)                                                               \
    do {                                                                              \
        uint64_t v_ = (val);                                                          \
        if ((k) >= 0)                                                                 \
            r->reg[(k) >= 0 ? (k) : 0][i] = v_;                                       \
        LITMUS_CF();                                                                      \
    } while (0)
#define LITMUS_XCHG(A, p, v, k)                                                           \
    LITMUS_KEEP(k, LITMUS_DROP(A) ? litmus_rmw_plain((p), 0, (uint64_t)(v) * K, 0)           \
                                  : litmus_xchg((p), (uint64_t)(v) * K))
#define LITMUS_ADD(A, p, v)                                                               \
    do {                                                                              \
        if (LITMUS_DROP(A))                                                           \
            litmus_rmw_plain((p), 1, (uint64_t)(v) * K, 0);                           \
        else                                                                          \
            litmus_lock_add((p), (uint64_t)(v) * K);                                  \
        LITMUS_CF();                                                                      \
    } while (0)
#define LITMUS_XADD(A, p, v, k)                                                           \
    LITMUS_KEEP(k, LITMUS_DROP(A) ? litmus_rmw_plain((p), 1, (uint64_t)(v) * K, 0)           \
                                  : litmus_xadd((p), (uint64_t)(v) * K))
#define LITMUS_CMPXCHG(A, p, e, v, k)                                                     \
    LITMUS_KEEP(k, LITMUS_DROP(A) ? litmus_rmw_plain((p), 2, (uint64_t)(v) * K, (uint64_t)(e) * K) \
                                  : litmus_cmpxchg((p), (uint64_t)(e) * K, (uint64_t)(v) * K))

#define LITMUS_MFENCE(A)                                                                  \
    do {                                                                              \
        if ((int)(A) != (int)LITMUS_ACC_DROP_FENCE)                                                 \
            atomic_thread_fence(memory_order_seq_cst);                                \
        LITMUS_CF();                                                                      \
    } while (0)

#endif
