/* litmus_tests.c — compiled thread bodies of the catalogue (litmus_catalog.c),
 * one loop per thread per access model.  Each body is the catalogue's ops for
 * that thread, in program order; LX/LY are locations x/y of copy i. */
#include <string.h>

#include "litmus_harness.h"

#define BG_LOOP(fn, ACC, T, BODY)                                                     \
    static void fn(const bg_litmus_round *r, uint64_t base)                           \
    {                                                                                 \
        enum { A = ACC };                                                             \
        const size_t n = r->n;                                                        \
        for (size_t i = 0; i < n; i++) {                                              \
            if (r->sync)                                                              \
                bg_litmus_sync(r, (T), i, base);                                      \
            _Atomic uint64_t *const LX = BG_LOC(r, i, 0);                             \
            _Atomic uint64_t *const LY = BG_LOC(r, i, r->nlocs > 1 ? 1 : 0);          \
            (void)LX;                                                                 \
            (void)LY;                                                                 \
            BODY                                                                      \
        }                                                                             \
    }

/* Instantiates thread T of a test for every access model. */
#define BG_THREAD(name, T, BODY)                                                      \
    BG_LOOP(name##_plain, BG_ACC_PLAIN, T, BODY)                                      \
    BG_LOOP(name##_tso, BG_ACC_TSO, T, BODY)                                          \
    BG_LOOP(name##_sc, BG_ACC_SC, T, BODY)                                            \
    BG_LOOP(name##_dropfence, BG_ACC_DROP_FENCE, T, BODY)                             \
    BG_LOOP(name##_tsorelaxed, BG_ACC_TSO_RELAXED, T, BODY)

/* SB */
BG_THREAD(sb0, 0, BG_ST(A, LX, 1); BG_LDR(A, 0, LY);)
BG_THREAD(sb1, 1, BG_ST(A, LY, 1); BG_LDR(A, 1, LX);)
/* SB+mfences */
BG_THREAD(sbf0, 0, BG_ST(A, LX, 1); BG_MFENCE(A); BG_LDR(A, 0, LY);)
BG_THREAD(sbf1, 1, BG_ST(A, LY, 1); BG_MFENCE(A); BG_LDR(A, 1, LX);)
/* R */
BG_THREAD(r0, 0, BG_ST(A, LX, 1); BG_ST(A, LY, 1);)
BG_THREAD(r1, 1, BG_ST(A, LY, 2); BG_LDR(A, 0, LX);)
/* MP */
BG_THREAD(mp0, 0, BG_ST(A, LX, 1); BG_ST(A, LY, 1);)
BG_THREAD(mp1, 1, BG_LDR(A, 0, LY); BG_LDR(A, 1, LX);)
/* LB */
BG_THREAD(lb0, 0, BG_LDR(A, 0, LX); BG_ST(A, LY, 1);)
BG_THREAD(lb1, 1, BG_LDR(A, 1, LY); BG_ST(A, LX, 1);)
/* S */
BG_THREAD(s0, 0, BG_ST(A, LX, 2); BG_ST(A, LY, 1);)
BG_THREAD(s1, 1, BG_LDR(A, 0, LY); BG_ST(A, LX, 1);)
/* 2+2W */
BG_THREAD(w0, 0, BG_ST(A, LX, 2); BG_ST(A, LY, 1);)
BG_THREAD(w1, 1, BG_ST(A, LY, 2); BG_ST(A, LX, 1);)
/* WRC */
BG_THREAD(wrc0, 0, BG_ST(A, LX, 1);)
BG_THREAD(wrc1, 1, BG_LDR(A, 0, LX); BG_ST(A, LY, 1);)
BG_THREAD(wrc2, 2, BG_LDR(A, 1, LY); BG_LDR(A, 2, LX);)
/* IRIW */
BG_THREAD(iriw0, 0, BG_ST(A, LX, 1);)
BG_THREAD(iriw1, 1, BG_ST(A, LY, 1);)
BG_THREAD(iriw2, 2, BG_LDR(A, 0, LX); BG_LDR(A, 1, LY);)
BG_THREAD(iriw3, 3, BG_LDR(A, 2, LY); BG_LDR(A, 3, LX);)
/* RWC */
BG_THREAD(rwc0, 0, BG_ST(A, LX, 1);)
BG_THREAD(rwc1, 1, BG_LDR(A, 0, LX); BG_LDR(A, 1, LY);)
BG_THREAD(rwc2, 2, BG_ST(A, LY, 1); BG_LDR(A, 2, LX);)
/* CoRR */
BG_THREAD(corr0, 0, BG_ST(A, LX, 1);)
BG_THREAD(corr1, 1, BG_LDR(A, 0, LX); BG_LDR(A, 1, LX);)
/* CoWR */
BG_THREAD(cowr0, 0, BG_ST(A, LX, 1); BG_LDR(A, 0, LX);)
BG_THREAD(cowr1, 1, BG_ST(A, LX, 2);)

#define BG_V(name) {name##_plain, name##_tso, name##_sc, name##_dropfence, name##_tsorelaxed}

typedef struct {
    const char *name;
    bg_litmus_loop loops[BG_LITMUS_MAX_THREADS][BG_ACC_COUNT];
} bg_litmus_code;

static const bg_litmus_code code[] = {
    {"SB", {BG_V(sb0), BG_V(sb1)}},
    {"SB+mfences", {BG_V(sbf0), BG_V(sbf1)}},
    {"R", {BG_V(r0), BG_V(r1)}},
    {"MP", {BG_V(mp0), BG_V(mp1)}},
    {"LB", {BG_V(lb0), BG_V(lb1)}},
    {"S", {BG_V(s0), BG_V(s1)}},
    {"2+2W", {BG_V(w0), BG_V(w1)}},
    {"WRC", {BG_V(wrc0), BG_V(wrc1), BG_V(wrc2)}},
    {"IRIW", {BG_V(iriw0), BG_V(iriw1), BG_V(iriw2), BG_V(iriw3)}},
    {"RWC", {BG_V(rwc0), BG_V(rwc1), BG_V(rwc2)}},
    {"CoRR", {BG_V(corr0), BG_V(corr1)}},
    {"CoWR", {BG_V(cowr0), BG_V(cowr1)}},
};

const bg_litmus_loop *bg_litmus_loops(const char *name, bg_litmus_access a)
{
    static _Thread_local bg_litmus_loop out[BG_LITMUS_MAX_THREADS];
    if ((int)a < 0 || a >= BG_ACC_COUNT)
        return NULL;
    for (size_t k = 0; name && k < sizeof code / sizeof code[0]; k++) {
        if (strcmp(code[k].name, name) != 0)
            continue;
        for (int t = 0; t < BG_LITMUS_MAX_THREADS; t++)
            out[t] = code[k].loops[t][a];
        return out;
    }
    return NULL;
}

static const char *const access_names[BG_ACC_COUNT] = {
    "plain", "tso", "sc", "mutant-drop-fence", "mutant-tso-relaxed"};

const char *bg_litmus_access_name(bg_litmus_access a)
{
    return (int)a >= 0 && a < BG_ACC_COUNT ? access_names[a] : "?";
}

int bg_litmus_access_parse(const char *name)
{
    for (int a = 0; name && a < BG_ACC_COUNT; a++)
        if (strcmp(access_names[a], name) == 0)
            return a;
    return -1;
}
