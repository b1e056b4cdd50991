/* litmus_tso.c — depth-first enumeration of x86-TSO executions: ops and
 * store-buffer flushes interleaved (see litmus_tso.h); with every store
 * flushed at once it is the SC enumeration of litmus_sc.h. */
#include "litmus_tso.h"

#include "litmus_sc.h"

#include <stdio.h>
#include <string.h>

/* A step of an execution, for the witness text. */
typedef enum { EV_ST, EV_LD_BUF, EV_LD_MEM, EV_FENCE, EV_FLUSH, EV_RMW } ev_kind;
typedef struct tso_event {
    ev_kind kind;
    int thread, loc;
    unsigned long long value;
} tso_event;

#define TSO_MAX_STEPS (LITMUS_MAX_THREADS * LITMUS_MAX_OPS * 2) /* each op, each flush */

typedef struct tso_state {
    int pc[LITMUS_MAX_THREADS];
    unsigned long long mem[LITMUS_MAX_LOCS];
    unsigned long long reg[LITMUS_MAX_REGS];
    int blen[LITMUS_MAX_THREADS];                  /* entries in the buffer, oldest first */
    int bloc[LITMUS_MAX_THREADS][LITMUS_MAX_OPS];
    unsigned long long bval[LITMUS_MAX_THREADS][LITMUS_MAX_OPS];
} tso_state;

typedef struct tso_run {
    const litmus_test *t;
    unsigned char *reachable; /* or NULL (witness search only) */
    unsigned target;          /* outcome whose witness is wanted, or count (none) */
    int eager;                /* every store flushed at once: sequential consistency */
    int found;
    int nsteps;
    tso_event steps[TSO_MAX_STEPS], witness[TSO_MAX_STEPS];
    int nwitness;
} tso_run;

static void push(tso_run *r, ev_kind k, int th, int loc, unsigned long long v)
{
    r->steps[r->nsteps++] = (tso_event){k, th, loc, v};
}

/* The oldest entry of th's buffer goes to memory. */
static void flush_one(tso_run *r, tso_state *s, int th)
{
    int loc = s->bloc[th][0];
    unsigned long long v = s->bval[th][0];
    s->mem[loc] = v;
    s->blen[th]--;
    memmove(s->bloc[th], s->bloc[th] + 1, (size_t)s->blen[th] * sizeof s->bloc[th][0]);
    memmove(s->bval[th], s->bval[th] + 1, (size_t)s->blen[th] * sizeof s->bval[th][0]);
    push(r, EV_FLUSH, th, loc, v);
}

/* Runs th's next op; returns 0 when it cannot proceed (MFENCE or a locked
 * RMW, buffer not empty). */
static int step_op(tso_run *r, tso_state *s, int th)
{
    const litmus_op *op = &r->t->ops[th][s->pc[th]];
    if (op->kind == LITMUS_OP_FENCE) {
        if (s->blen[th])
            return 0;
        push(r, EV_FENCE, th, -1, 0);
    } else if (op->kind >= LITMUS_OP_XCHG) {
        /* a LOCK'd instruction (CACM 2010 section 3): runs with its thread's
         * buffer empty, reads and writes memory in one step */
        if (s->blen[th])
            return 0;
        unsigned long long old = s->mem[op->loc], v = (unsigned long long)op->value;
        if (op->kind == LITMUS_OP_ADD || op->kind == LITMUS_OP_XADD)
            s->mem[op->loc] = old + v;
        else if (op->kind == LITMUS_OP_XCHG || old == (unsigned long long)op->expect)
            s->mem[op->loc] = v;
        if (op->reg >= 0)
            s->reg[op->reg] = old;
        push(r, EV_RMW, th, op->loc, s->mem[op->loc]);
    } else if (op->kind == LITMUS_OP_ST) {
        s->bloc[th][s->blen[th]] = op->loc;
        s->bval[th][s->blen[th]++] = (unsigned long long)op->value;
        push(r, EV_ST, th, op->loc, (unsigned long long)op->value);
#ifdef LITMUS_TSO_MUTANT_EAGER_FLUSH
        r->eager = 1; /* the mutant: no store ever waits in a buffer, under TSO too */
#endif
        if (r->eager)
            flush_one(r, s, th);
    } else { /* LITMUS_OP_LD (kinds checked before the search) */
        int b = s->blen[th] - 1;
        while (b >= 0 && s->bloc[th][b] != op->loc)
            b--;
        s->reg[op->reg] = b >= 0 ? s->bval[th][b] : s->mem[op->loc];
        push(r, b >= 0 ? EV_LD_BUF : EV_LD_MEM, th, op->loc, s->reg[op->reg]);
    }
    s->pc[th]++;
    return 1;
}

static void final_state(tso_run *r, const tso_state *s)
{
    const litmus_test *t = r->t;
    unsigned long long v[LITMUS_MAX_OBS];
    for (int o = 0; o < t->nobs; o++)
        v[o] = t->obs[o].reg >= 0 ? s->reg[t->obs[o].reg] : s->mem[t->obs[o].loc];
    unsigned idx = litmus_outcome_index(t, v);
    if (idx >= litmus_outcome_count(t))
        return;
    if (r->reachable)
        r->reachable[idx] = 1;
    if (idx == r->target && !r->found) {
        r->found = 1;
        r->nwitness = r->nsteps;
        memcpy(r->witness, r->steps, (size_t)r->nsteps * sizeof r->steps[0]);
    }
}

static void explore(tso_run *r, tso_state *s)
{
    int progressed = 0;
    for (int th = 0; th < r->t->nthreads; th++) {
        for (int flush = 0; flush <= 1; flush++) {
            if (flush ? s->blen[th] == 0 : s->pc[th] >= r->t->nops[th])
                continue;
            progressed = 1; /* a blocked MFENCE still has a non-empty buffer to flush */
            tso_state saved = *s;
            int saved_steps = r->nsteps;
            if (flush)
                flush_one(r, s, th);
            if (flush || step_op(r, s, th))
                explore(r, s);
            *s = saved;
            r->nsteps = saved_steps;
        }
    }
    if (!progressed)
        final_state(r, s);
}

/* 0, or 1 with the thread and op index of the first op of a kind not modelled. */
static int check_kinds(const litmus_test *t, int *bad_thread, int *bad_op)
{
    for (int th = 0; th < t->nthreads; th++)
        for (int o = 0; o < t->nops[th]; o++) {
            litmus_opkind k = t->ops[th][o].kind;
            if (k > LITMUS_OP_NONE && k < LITMUS_OP_KINDS)
                continue;
            if (bad_thread)
                *bad_thread = th;
            if (bad_op)
                *bad_op = o;
            return 1;
        }
    return 0;
}

static void run(tso_run *r)
{
    tso_state s;
    memset(&s, 0, sizeof s);
    r->found = r->nsteps = r->nwitness = 0;
    explore(r, &s);
}

int litmus_tso_outcomes(const litmus_test *t, unsigned char *reachable, int *bad_thread,
                        int *bad_op)
{
    memset(reachable, 0, litmus_outcome_count(t));
    if (check_kinds(t, bad_thread, bad_op))
        return 1;
    tso_run r = {.t = t, .reachable = reachable, .target = litmus_outcome_count(t)};
    run(&r);
    return 0;
}

/* SC (litmus_sc.h): the same machine with no store ever waiting in a buffer,
 * so every load reads memory and every interleaving of ops is one of SC's. */
void litmus_sc_outcomes(const litmus_test *t, unsigned char *reachable)
{
    tso_run r = {.t = t, .reachable = reachable, .target = litmus_outcome_count(t), .eager = 1};
    memset(reachable, 0, litmus_outcome_count(t));
    if (!check_kinds(t, NULL, NULL))
        run(&r);
}

int litmus_tso_witness(const litmus_test *t, unsigned o, char *buf, size_t n)
{
    if (n == 0)
        return 0;
    buf[0] = '\0';
    if (o >= litmus_outcome_count(t) || check_kinds(t, NULL, NULL))
        return 0;
    tso_run r = {.t = t, .target = o};
    run(&r);
    size_t used = 0;
    for (int i = 0; r.found && i < r.nwitness && used < n; i++) {
        const tso_event *e = &r.witness[i];
        const char *sep = i ? ", " : "", *l = litmus_loc_name(e->loc);
        int w;
        if (e->kind == EV_FENCE)
            w = snprintf(buf + used, n - used, "%sT%d mfence", sep, e->thread);
        else if (e->kind == EV_RMW)
            w = snprintf(buf + used, n - used, "%sT%d locked rmw %s:=%llu (memory)", sep, e->thread,
                         l, e->value);
        else if (e->kind == EV_ST)
            w = snprintf(buf + used, n - used, "%sT%d st %s=%llu (buffered)", sep, e->thread, l,
                         e->value);
        else if (e->kind == EV_FLUSH)
            w = snprintf(buf + used, n - used, "%sT%d flush %s=%llu", sep, e->thread, l, e->value);
        else
            w = snprintf(buf + used, n - used, "%sT%d ld %s=%llu (%s)", sep, e->thread, l,
                         e->value, e->kind == EV_LD_BUF ? "own buffer" : "memory");
        if (w < 0)
            break;
        used += (size_t)w;
    }
    return r.found;
}
