/* litmus_catalog.c — the test table (see litmus_catalog.h for the sources).
 * Each entry cites its herdtools7 catalogue shape; x = location 0, y = 1. */
#include "litmus_catalog.h"

#include <stdio.h>
#include <string.h>

#define ST(l, v) {BG_OP_ST, (l), (v), -1}
#define LD(l, r) {BG_OP_LD, (l), 0, (r)}
#define MF {BG_OP_FENCE, -1, 0, -1}
#define REG(r) {(r), -1}
#define MEM(l) {-1, (l)}
enum { X = 0, Y = 1 };

static const bg_litmus_test tests[] = {
    /* SB: x=1; r0=y || y=1; r0=x.  exists (0:r0=0 /\ 1:r0=0). */
    {"SB", 2, 2, 2, {0, 1}, {0, 0}, {2, 2},
     {{ST(X, 1), LD(Y, 0)}, {ST(Y, 1), LD(X, 1)}}, 2, {REG(0), REG(1)}},
    /* SB+mfences: as SB with MFENCE between store and load. */
    {"SB+mfences", 2, 2, 2, {0, 1}, {0, 0}, {3, 3},
     {{ST(X, 1), MF, LD(Y, 0)}, {ST(Y, 1), MF, LD(X, 1)}}, 2, {REG(0), REG(1)}},
    /* R: x=1; y=1 || y=2; r0=x.  exists (y=2 /\ 1:r0=0). */
    {"R", 2, 2, 1, {1}, {0}, {2, 2},
     {{ST(X, 1), ST(Y, 1)}, {ST(Y, 2), LD(X, 0)}}, 2, {REG(0), MEM(Y)}},
    /* MP: x=1; y=1 || r0=y; r1=x.  exists (1:r0=1 /\ 1:r1=0). */
    {"MP", 2, 2, 2, {1, 1}, {0, 1}, {2, 2},
     {{ST(X, 1), ST(Y, 1)}, {LD(Y, 0), LD(X, 1)}}, 2, {REG(0), REG(1)}},
    /* LB: r0=x; y=1 || r0=y; x=1.  exists (0:r0=1 /\ 1:r0=1). */
    {"LB", 2, 2, 2, {0, 1}, {0, 0}, {2, 2},
     {{LD(X, 0), ST(Y, 1)}, {LD(Y, 1), ST(X, 1)}}, 2, {REG(0), REG(1)}},
    /* S: x=2; y=1 || r0=y; x=1.  exists (x=2 /\ 1:r0=1). */
    {"S", 2, 2, 1, {1}, {0}, {2, 2},
     {{ST(X, 2), ST(Y, 1)}, {LD(Y, 0), ST(X, 1)}}, 2, {REG(0), MEM(X)}},
    /* 2+2W: x=2; y=1 || y=2; x=1.  exists (x=2 /\ y=2). */
    {"2+2W", 2, 2, 0, {0}, {0}, {2, 2},
     {{ST(X, 2), ST(Y, 1)}, {ST(Y, 2), ST(X, 1)}}, 2, {MEM(X), MEM(Y)}},
    /* WRC: x=1 || r0=x; y=1 || r0=y; r1=x.  exists (1:r0=1 /\ 2:r0=1 /\ 2:r1=0). */
    {"WRC", 3, 2, 3, {1, 2, 2}, {0, 0, 1}, {1, 2, 2},
     {{ST(X, 1)}, {LD(X, 0), ST(Y, 1)}, {LD(Y, 1), LD(X, 2)}}, 3, {REG(0), REG(1), REG(2)}},
    /* IRIW: x=1 || y=1 || r0=x; r1=y || r0=y; r1=x.
     * exists (2:r0=1 /\ 2:r1=0 /\ 3:r0=1 /\ 3:r1=0). */
    {"IRIW", 4, 2, 4, {2, 2, 3, 3}, {0, 1, 0, 1}, {1, 1, 2, 2},
     {{ST(X, 1)}, {ST(Y, 1)}, {LD(X, 0), LD(Y, 1)}, {LD(Y, 2), LD(X, 3)}}, 4,
     {REG(0), REG(1), REG(2), REG(3)}},
    /* RWC: x=1 || r0=x; r1=y || y=1; r0=x.  exists (1:r0=1 /\ 1:r1=0 /\ 2:r0=0). */
    {"RWC", 3, 2, 3, {1, 1, 2}, {0, 1, 0}, {1, 2, 2},
     {{ST(X, 1)}, {LD(X, 0), LD(Y, 1)}, {ST(Y, 1), LD(X, 2)}}, 3, {REG(0), REG(1), REG(2)}},
    /* CoRR: x=1 || r0=x; r1=x.  exists (1:r0=1 /\ 1:r1=0). */
    {"CoRR", 2, 1, 2, {1, 1}, {0, 1}, {1, 2},
     {{ST(X, 1)}, {LD(X, 0), LD(X, 1)}}, 2, {REG(0), REG(1)}},
    /* CoWR: x=1; r0=x || x=2.  exists (0:r0=2 /\ x=1). */
    {"CoWR", 2, 1, 1, {0}, {0}, {2, 1},
     {{ST(X, 1), LD(X, 0)}, {ST(X, 2)}}, 2, {REG(0), MEM(X)}},
};

const bg_litmus_test *bg_litmus_tests(size_t *n)
{
    *n = sizeof tests / sizeof tests[0];
    return tests;
}

const bg_litmus_test *bg_litmus_find(const char *name)
{
    for (size_t i = 0; name && i < sizeof tests / sizeof tests[0]; i++)
        if (strcmp(tests[i].name, name) == 0)
            return &tests[i];
    return NULL;
}

unsigned bg_litmus_outcome_count(const bg_litmus_test *t)
{
    unsigned c = 1;
    for (int i = 0; i < t->nobs; i++)
        c *= BG_LITMUS_VALUES;
    return c;
}

unsigned bg_litmus_outcome_index(const bg_litmus_test *t, const unsigned long long *v)
{
    unsigned idx = 0;
    for (int i = 0; i < t->nobs; i++) {
        if (v[i] >= BG_LITMUS_VALUES)
            return bg_litmus_outcome_count(t);
        idx = idx * BG_LITMUS_VALUES + (unsigned)v[i];
    }
    return idx;
}

const char *bg_litmus_loc_name(int l)
{
    static const char *const names[BG_LITMUS_MAX_LOCS] = {"x", "y"};
    return l >= 0 && l < BG_LITMUS_MAX_LOCS ? names[l] : "?";
}

void bg_litmus_outcome_key(const bg_litmus_test *t, unsigned index, char *buf, size_t n)
{
    if (n == 0)
        return;
    buf[0] = '\0';
    if (index >= bg_litmus_outcome_count(t)) {
        snprintf(buf, n, "impossible;");
        return;
    }
    unsigned digits[BG_LITMUS_MAX_OBS];
    for (int i = t->nobs - 1; i >= 0; i--) {
        digits[i] = index % BG_LITMUS_VALUES;
        index /= BG_LITMUS_VALUES;
    }
    size_t used = 0;
    for (int i = 0; i < t->nobs && used < n; i++) {
        const bg_litmus_obs *o = &t->obs[i];
        int w;
        if (o->reg >= 0)
            w = snprintf(buf + used, n - used, "%s%d:r%d=%u;", used ? " " : "",
                         t->reg_thread[o->reg], t->reg_local[o->reg], digits[i]);
        else
            w = snprintf(buf + used, n - used, "%s%s=%u;", used ? " " : "",
                         bg_litmus_loc_name(o->loc), digits[i]);
        if (w < 0)
            return;
        used += (size_t)w;
    }
}
