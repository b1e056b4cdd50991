/* litmus_catalog.h — the litmus tests of the memory_order suite, as data.
 *
 * Each test is the standard shape of the herdtools7 catalogue
 * (herdtools7/litmus/x86/ and the x86-TSO paper: Sewell, Sarkar, Owens,
 * Zappa Nardelli, Myreen, "x86-TSO: A Rigorous and Usable Programmer's Model
 * for x86 Multiprocessors", CACM 53(7), 2010).  Locations start at 0; a
 * register is "t:rk" (thread t, local register k), as litmus7 prints it.
 *
 * Every test is written once, in litmus_tests.def, which expands into this
 * table (read by the checker, which enumerates the sequentially consistent
 * outcomes from the ops) and into the compiled thread bodies the probe runs
 * (litmus_tests.c): the two cannot drift apart.
 *
 * This header and its .c depend on libc only: the probe is cross-built for
 * arm64 without buildgate's other dependencies.
 */
#ifndef BG_LITMUS_CATALOG_H
#define BG_LITMUS_CATALOG_H

#include <stddef.h>

#define BG_LITMUS_MAX_THREADS 4
#define BG_LITMUS_MAX_OPS 3   /* per thread */
#define BG_LITMUS_MAX_LOCS 2
#define BG_LITMUS_MAX_REGS 4  /* per test, over all threads */
#define BG_LITMUS_MAX_OBS 4   /* observables in one outcome */
#define BG_LITMUS_VALUES 3    /* every location and register holds 0, 1 or 2 */

/* BG_OP_NONE (0) marks an empty op slot: a thread's ops end at the first. */
typedef enum bg_litmus_opkind { BG_OP_NONE, BG_OP_ST, BG_OP_LD, BG_OP_FENCE } bg_litmus_opkind;

typedef struct bg_litmus_op {
    bg_litmus_opkind kind;
    int loc;   /* location index (ST, LD) */
    int value; /* value stored (ST) */
    int reg;   /* global register index written (LD) */
} bg_litmus_op;

/* An observable: a register (reg >= 0) or the final value of a location. */
typedef struct bg_litmus_obs {
    int reg; /* global register index, or -1 */
    int loc; /* location index when reg < 0 */
} bg_litmus_obs;

typedef struct bg_litmus_test {
    const char *name;       /* catalogue name: "SB", "SB+mfences", ... */
    int nthreads;
    int nlocs;
    int nregs;
    int reg_thread[BG_LITMUS_MAX_REGS]; /* owner thread of each register */
    int reg_local[BG_LITMUS_MAX_REGS];  /* k in "t:rk" */
    int nops[BG_LITMUS_MAX_THREADS];
    bg_litmus_op ops[BG_LITMUS_MAX_THREADS][BG_LITMUS_MAX_OPS];
    int nobs;
    bg_litmus_obs obs[BG_LITMUS_MAX_OBS];
} bg_litmus_test;

/* The catalogue: *n receives the number of tests. */
const bg_litmus_test *bg_litmus_tests(size_t *n);

/* The test named name (exact, case-sensitive), or NULL. */
const bg_litmus_test *bg_litmus_find(const char *name);

/* Number of distinct outcomes: BG_LITMUS_VALUES ^ nobs. */
unsigned bg_litmus_outcome_count(const bg_litmus_test *t);

/* Outcome index from observable values v[nobs] (each 0..2); values out of
 * range give bg_litmus_outcome_count(t) (an "impossible" bucket). */
unsigned bg_litmus_outcome_index(const bg_litmus_test *t, const unsigned long long *v);

/* Writes the outcome's litmus7-style key, e.g. "0:r0=0; 1:r0=0;" or
 * "1:r0=0; y=2;", into buf[n]; index == count gives "impossible;". */
void bg_litmus_outcome_key(const bg_litmus_test *t, unsigned index, char *buf, size_t n);

/* The catalogue's test names, space-separated, into buf[n] (for usage and
 * "unknown test" lines). */
void bg_litmus_names(char *buf, size_t n);

/* Name of location l: "x", "y". */
const char *bg_litmus_loc_name(int l);

#endif
