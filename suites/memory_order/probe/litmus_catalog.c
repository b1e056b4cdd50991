/* litmus_catalog.c — the test table, expanded from litmus_tests.def (see
 * litmus_catalog.h). */
#include "litmus_catalog.h"

#include <stdio.h>
#include <string.h>

/* The table, expanded from litmus_tests.def: the ops and observables as
 * written there; the counts and register owners are derived from the ops
 * (derive() below), so nothing is written twice. */
enum { X = 0, Y = 1 };
#define ST(l, v) {BG_OP_ST, (l), (v), -1},
#define LD(l, r) {BG_OP_LD, (l), 0, (r)},
#define MF {BG_OP_FENCE, -1, 0, -1},
#define REG(r) {(r), -1}
#define MEM(l) {-1, (l)}
#define BG_OBS_OBS(...)                                                                  \
    .nobs = (int)(sizeof((bg_litmus_obs[]){__VA_ARGS__}) / sizeof(bg_litmus_obs)),       \
    .obs = {__VA_ARGS__}
#define LITMUS(id, name_, obs) {.name = name_, BG_OBS_##obs, .ops = {
#define THREAD(id, k, ...) [k] = {__VA_ARGS__},
#define END(id) }},
static bg_litmus_test tests[] = {
#include "litmus_tests.def"
};
#undef ST
#undef LD
#undef MF
#undef REG
#undef MEM
#undef LITMUS
#undef THREAD
#undef END

/* Fills what the ops imply: nops and nthreads (ops up to the first empty
 * slot), nlocs (highest location + 1), nregs, and each register's owner
 * thread and local number (its place among that thread's loads). */
static void derive(bg_litmus_test *t)
{
    for (int th = 0; th < BG_LITMUS_MAX_THREADS; th++) {
        int local = 0;
        for (int o = 0; o < BG_LITMUS_MAX_OPS && t->ops[th][o].kind != BG_OP_NONE; o++) {
            const bg_litmus_op *op = &t->ops[th][o];
            t->nops[th] = o + 1;
            t->nthreads = th + 1;
            if (op->loc + 1 > t->nlocs)
                t->nlocs = op->loc + 1;
            if (op->kind == BG_OP_LD && op->reg >= 0 && op->reg < BG_LITMUS_MAX_REGS) {
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

const bg_litmus_test *bg_litmus_tests(size_t *n)
{
    derive_all();
    *n = sizeof tests / sizeof tests[0];
    return tests;
}

const bg_litmus_test *bg_litmus_find(const char *name)
{
    derive_all();
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

void bg_litmus_names(char *buf, size_t n)
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
