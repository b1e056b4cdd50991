/* litmus_tests.c — compiled thread bodies of the catalogue, expanded from
 * litmus_tests.def (the same entries litmus_catalog.c reads): one loop per
 * thread per access, each body the thread's ops in program order;
 * LX/LY are locations x/y of copy i. */
#include <string.h>

#include "litmus_harness.h"

#define LITMUS_LOOP(fn, ACC, T, BODY)                                                     \
    static void fn(const litmus_round *r, uint64_t base)                           \
    {                                                                                 \
        enum { A = ACC };                                                             \
        const size_t n = r->n;                                                        \
        const uint64_t K = r->split ? LITMUS_SPLIT_K : 1;                             \
        (void)K;                                                                      \
        for (size_t i = 0; i < n; i++) {                                              \
            if (r->sync)                                                              \
                litmus_sync(r, (T), i, base);                                      \
            _Atomic uint64_t *const LX = LITMUS_LOC(r, i, 0);                             \
            _Atomic uint64_t *const LY = LITMUS_LOC(r, i, r->nlocs > 1 ? 1 : 0);          \
            _Atomic uint64_t *const LZ = LITMUS_LOC(r, i, r->nlocs > 2 ? 2 : 0);          \
            _Atomic uint64_t *const LW = LITMUS_LOC(r, i, r->nlocs > 3 ? 3 : 0);          \
            (void)LX;                                                                 \
            (void)LY;                                                                 \
            (void)LZ;                                                                 \
            (void)LW;                                                                 \
            BODY                                                                      \
        }                                                                             \
    }

/* Instantiates thread T of a test for every access. */
#define LITMUS_THREAD(name, T, BODY)                                                      \
    LITMUS_LOOP(name##_plain, LITMUS_ACC_PLAIN, T, BODY)                                      \
    LITMUS_LOOP(name##_tso, LITMUS_ACC_TSO, T, BODY)                                          \
    LITMUS_LOOP(name##_sc, LITMUS_ACC_SC, T, BODY)                                            \
    LITMUS_LOOP(name##_dropfence, LITMUS_ACC_DROP_FENCE, T, BODY)                             \
    LITMUS_LOOP(name##_tsorelaxed, LITMUS_ACC_TSO_RELAXED, T, BODY)

/* The thread bodies: litmus_tests.def's ops as code (x, y, z, w = LX..LW). */
#define X LX
#define Y LY
#define Z LZ
#define W LW
#define ST(l, v) LITMUS_ST(A, l, v);
#define LD(l, r) LITMUS_LDR(A, r, l);
#define MF LITMUS_MFENCE(A);
#define XCHG(l, v, k) LITMUS_XCHG(A, l, v, k);
#define LADD(l, v) LITMUS_ADD(A, l, v);
#define XADD(l, v, k) LITMUS_XADD(A, l, v, k);
#define CMPXCHG(l, e, v, k) LITMUS_CMPXCHG(A, l, e, v, k);
#define LITMUS(id, name, set, obs)
#define THREAD(id, k, ...) LITMUS_THREAD(id##k, k, __VA_ARGS__)
#define END(id)
#include "litmus_tests.def"
#undef LITMUS
#undef THREAD
#undef END

#define LITMUS_V(name) {name##_plain, name##_tso, name##_sc, name##_dropfence, name##_tsorelaxed}

typedef struct {
    const char *name;
    litmus_loop loops[LITMUS_MAX_THREADS][LITMUS_ACC_COUNT];
} litmus_code;

/* Each test's loops, by name, in litmus_tests.def's order. */
static const litmus_code code[] = {
#define LITMUS(id, name, set, obs) {name, {
#define THREAD(id, k, ...) LITMUS_V(id##k),
#define END(id) }},
#include "litmus_tests.def"
};

const litmus_loop *litmus_loops(const char *name, litmus_access a)
{
    static _Thread_local litmus_loop out[LITMUS_MAX_THREADS];
    if ((int)a < 0 || a >= LITMUS_ACC_COUNT)
        return NULL;
    for (size_t k = 0; name && k < sizeof code / sizeof code[0]; k++) {
        if (strcmp(code[k].name, name) != 0)
            continue;
        for (int t = 0; t < LITMUS_MAX_THREADS; t++)
            out[t] = code[k].loops[t][a];
        return out;
    }
    return NULL;
}

static const char *const access_names[LITMUS_ACC_COUNT] = {
    "plain", "tso", "sc", "mutant-drop-fence", "mutant-tso-relaxed"};

const char *litmus_access_name(litmus_access a)
{
    return (int)a >= 0 && a < LITMUS_ACC_COUNT ? access_names[a] : "?";
}

int litmus_access_parse(const char *name)
{
    for (int a = 0; name && a < LITMUS_ACC_COUNT; a++)
        if (strcmp(access_names[a], name) == 0)
            return a;
    return -1;
}
