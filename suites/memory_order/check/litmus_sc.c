/* litmus_sc.c — depth-first enumeration of interleavings (see litmus_sc.h). */
#include "litmus_sc.h"

#include <string.h>

typedef struct sc_state {
    int pc[LITMUS_MAX_THREADS];
    unsigned long long mem[LITMUS_MAX_LOCS];
    unsigned long long reg[LITMUS_MAX_REGS];
} sc_state;

static void explore(const litmus_test *t, sc_state *s, unsigned char *reachable)
{
    int progressed = 0;
    for (int th = 0; th < t->nthreads; th++) {
        if (s->pc[th] >= t->nops[th])
            continue;
        progressed = 1;
        sc_state saved = *s;
        const litmus_op *op = &t->ops[th][s->pc[th]++];
        if (op->kind == LITMUS_OP_ST)
            s->mem[op->loc] = (unsigned long long)op->value;
        else if (op->kind == LITMUS_OP_LD)
            s->reg[op->reg] = s->mem[op->loc];
        explore(t, s, reachable);
        *s = saved;
    }
    if (progressed)
        return;
    unsigned long long v[LITMUS_MAX_OBS];
    for (int o = 0; o < t->nobs; o++)
        v[o] = t->obs[o].reg >= 0 ? s->reg[t->obs[o].reg] : s->mem[t->obs[o].loc];
    unsigned idx = litmus_outcome_index(t, v);
    if (idx < litmus_outcome_count(t))
        reachable[idx] = 1;
}

void litmus_sc_outcomes(const litmus_test *t, unsigned char *reachable)
{
    sc_state s;
    memset(&s, 0, sizeof s);
    memset(reachable, 0, litmus_outcome_count(t));
    explore(t, &s, reachable);
}
