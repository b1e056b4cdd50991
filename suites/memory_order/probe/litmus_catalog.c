/* litmus_catalog.c — the test table, expanded from litmus_tests.def (see
 * litmus_catalog.h). */
#include "litmus_catalog.h"

#include <stdio.h>
#include <string.h>

/* The table, expanded from litmus_tests.def: the ops and observables as
 * written there; the counts and register owners are derived from the ops
 * (derive() below), so nothing is written twice. */
enum { X = 0, Y = 1, Z = 2, W = 3 };
#define CORE LITMUS_SET_CORE
#define CATALOGUE LITMUS_SET_CATALOGUE
#define RMW LITMUS_SET_RMW
#define SPLIT LITMUS_SET_SPLIT
#define ST(l, v) {LITMUS_OP_ST, (l), (v), -1, 0},
#define LD(l, r) {LITMUS_OP_LD, (l), 0, (r), 0},
#define MF {LITMUS_OP_FENCE, -1, 0, -1, 0},
#define XCHG(l, v, r) {LITMUS_OP_XCHG, (l), (v), (r), 0},
#define LADD(l, v) {LITMUS_OP_ADD, (l), (v), -1, 0},
#define XADD(l, v, r) {LITMUS_OP_XADD, (l), (v), (r), 0},
#define CMPXCHG(l, e, v, r) {LITMUS_OP_CMPXCHG, (l), (v), (r), (e)},
#define REG(r) {(r), -1}
#define MEM(l) {-1, (l)}
#define LITMUS_OBS_OBS(...)                                                                  \
    .nobs = (int)(sizeof((litmus_obs[]){__VA_ARGS__}) / sizeof(litmus_obs)),       \
    .obs = {__VA_ARGS__}
#define LITMUS(id, name_, set_, obs) {.name = name_, .set = set_, LITMUS_OBS_##obs, .ops = {
#define THREAD(id, k, ...) [k] = {__VA_ARGS__},
#define END(id) }},
static litmus_test tests[] = {
#include "litmus_tests.def"
};
#undef ST
#undef LD
#undef MF
#undef XCHG
#undef LADD
#undef XADD
#undef CMPXCHG
#undef REG
#undef MEM
#undef LITMUS
#undef THREAD
#undef END

/* Fills what the ops imply: nops and nthreads (ops up to the first empty
 * slot), nlocs (highest location + 1), nregs, and each register's owner
 * thread and local number (its place among that thread's loads and
 * read-modify-writes). */
static void derive(litmus_test *t)
{
    for (int th = 0; th < LITMUS_MAX_THREADS; th++) {
        int local = 0;
        for (int o = 0; o < LITMUS_MAX_OPS && t->ops[th][o].kind != LITMUS_OP_NONE; o++) {
            const litmus_op *op = &t->ops[th][o];
            t->nops[th] = o + 1;
            t->nthreads = th + 1;
            if (op->loc + 1 > t->nlocs)
                t->nlocs = op->loc + 1;
            if (op->kind != LITMUS_OP_FENCE && op->reg >= 0 && op->reg < LITMUS_MAX_REGS) {
                t->reg_thread[op->reg] = th;
                t->reg_local[op->reg] = local++;
                if (op->reg + 1 > t->nregs)
                    t->nregs = op->reg + 1;
            }
        }
    }
}

static void derive_all(void)
{
    static int done;
    if (done)
        return;
    for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++)
        derive(&tests[i]);
    done = 1;
}

const litmus_test *litmus_tests(size_t *n)
{
    derive_all();
    *n = sizeof tests / sizeof tests[0];
    return tests;
}

const litmus_test *litmus_find(const char *name)
{
    derive_all();
    for (size_t i = 0; name && i < sizeof tests / sizeof tests[0]; i++)
        if (strcmp(tests[i].name, name) == 0)
            return &tests[i];
    return NULL;
}

unsigned litmus_outcome_count(const litmus_test *t)
{
    unsigned c = 1;
    for (int i = 0; i < t->nobs; i++)
        c *= LITMUS_VALUES;
    return c;
}

unsigned litmus_outcome_index(const litmus_test *t, const unsigned long long *v)
{
    unsigned idx = 0;
    for (int i = 0; i < t->nobs; i++) {
        if (v[i] >= LITMUS_VALUES)
            return litmus_outcome_count(t);
        idx = idx * LITMUS_VALUES + (unsigned)v[i];
    }
    return idx;
}

const char *litmus_loc_name(int l)
{
    static const char *const names[LITMUS_MAX_LOCS] = {"x", "y", "z", "w"};
    return l >= 0 && l < LITMUS_MAX_LOCS ? names[l] : "?";
}

void litmus_outcome_key(const litmus_test *t, unsigned index, char *buf, size_t n)
{
    if (n == 0)
        return;
    buf[0] = '\0';
    if (index >= litmus_outcome_count(t)) {
        snprintf(buf, n, "impossible;");
        return;
    }
    unsigned digits[LITMUS_MAX_OBS];
    for (int i = t->nobs - 1; i >= 0; i--) {
        digits[i] = index % LITMUS_VALUES;
        index /= LITMUS_VALUES;
    }
    size_t used = 0;
    for (int i = 0; i < t->nobs && used < n; i++) {
        const litmus_obs *o = &t->obs[i];
        int w;
        if (o->reg >= 0)
            w = snprintf(buf + used, n - used, "%s%d:r%d=%u;", used ? " " : "",
                         t->reg_thread[o->reg], t->reg_local[o->reg], digits[i]);
        else
            w = snprintf(buf + used, n - used, "%s%s=%u;", used ? " " : "",
                         litmus_loc_name(o->loc), digits[i]);
        if (w < 0)
            return;
        used += (size_t)w;
    }
}

void litmus_names(char *buf, size_t n)
{
    size_t used = 0;
    if (n == 0)
        return;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof tests / sizeof tests[0] && used < n; i++) {
        int w = snprintf(buf + used, n - used, "%s%s", i ? " " : "", tests[i].name);
        if (w < 0)
            return;
        used += (size_t)w;
    }
}
