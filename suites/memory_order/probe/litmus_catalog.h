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
#ifndef LITMUS_CATALOG_H
#define LITMUS_CATALOG_H

#include <stddef.h>

#define LITMUS_MAX_THREADS 4
#define LITMUS_MAX_OPS 4   /* per thread */
#define LITMUS_MAX_LOCS 4  /* x y z w */
#define LITMUS_MAX_REGS 4  /* per test, over all threads */
#define LITMUS_MAX_OBS 4   /* observables in one outcome */
#define LITMUS_VALUES 3    /* every location and register holds 0, 1 or 2 */

/* LITMUS_OP_NONE (0) marks an empty op slot: a thread's ops end at the first.
 * The locked read-modify-writes (x86 XCHG, LOCK ADD, LOCK XADD, LOCK CMPXCHG;
 * C11 atomic_exchange / fetch_add / compare_exchange on arm64) read and write
 * memory atomically and order like MFENCE (Intel SDM Vol.3A 9.2.2). */
typedef enum litmus_opkind {
    LITMUS_OP_NONE,
    LITMUS_OP_ST,
    LITMUS_OP_LD,
    LITMUS_OP_FENCE,
    LITMUS_OP_XCHG,    /* reg := loc; loc := value */
    LITMUS_OP_ADD,     /* LOCK ADD: loc := loc + value (no register) */
    LITMUS_OP_XADD,    /* LOCK XADD: reg := loc; loc := loc + value */
    LITMUS_OP_CMPXCHG, /* LOCK CMPXCHG: reg := loc; if loc == expect, loc := value */
    LITMUS_OP_KINDS    /* count */
} litmus_opkind;

typedef struct litmus_op {
    litmus_opkind kind;
    int loc;    /* location index (every kind but FENCE) */
    int value;  /* value stored (ST, XCHG, CMPXCHG) or added (ADD, XADD) */
    int reg;    /* global register index written (LD, XCHG, XADD, CMPXCHG), or -1 */
    int expect; /* CMPXCHG's comparand */
} litmus_op;

/* Which tests a test belongs with (litmus_tests.def's SET column): CORE runs
 * on every runner and access by default; CATALOGUE (the rest of herdtools7's
 * x86 catalogue), RMW (locked read-modify-writes) and SPLIT run natively and
 * under qemu-x86_64 by default and everywhere under label long; SPLIT tests
 * place every location across a 64-byte line boundary (x86-64 only). */
typedef enum litmus_set { LITMUS_SET_CORE, LITMUS_SET_CATALOGUE, LITMUS_SET_RMW, LITMUS_SET_SPLIT } litmus_set;

/* SPLIT tests: a location is the 8 bytes at this offset of its 128-byte slot
 * (bytes 60..67: across the 64-byte line boundary), and value v is stored as
 * v * LITMUS_SPLIT_K (v in both 32-bit halves), so a torn access reads a word
 * whose halves differ: an "impossible" outcome. */
#define LITMUS_SPLIT_OFFSET 60
#define LITMUS_SPLIT_K 0x100000001ULL

/* An observable: a register (reg >= 0) or the final value of a location. */
typedef struct litmus_obs {
    int reg; /* global register index, or -1 */
    int loc; /* location index when reg < 0 */
} litmus_obs;

typedef struct litmus_test {
    const char *name;       /* catalogue name: "SB", "SB+mfences", ... */
    litmus_set set;
    int nthreads;
    int nlocs;
    int nregs;
    int reg_thread[LITMUS_MAX_REGS]; /* owner thread of each register */
    int reg_local[LITMUS_MAX_REGS];  /* k in "t:rk" */
    int nops[LITMUS_MAX_THREADS];
    litmus_op ops[LITMUS_MAX_THREADS][LITMUS_MAX_OPS];
    int nobs;
    litmus_obs obs[LITMUS_MAX_OBS];
} litmus_test;

/* The catalogue: *n receives the number of tests. */
const litmus_test *litmus_tests(size_t *n);

/* The test named name (exact, case-sensitive), or NULL. */
const litmus_test *litmus_find(const char *name);

/* Number of distinct outcomes: LITMUS_VALUES ^ nobs. */
unsigned litmus_outcome_count(const litmus_test *t);

/* Outcome index from observable values v[nobs] (each 0..2); values out of
 * range give litmus_outcome_count(t) (an "impossible" bucket). */
unsigned litmus_outcome_index(const litmus_test *t, const unsigned long long *v);

/* Writes the outcome's litmus7-style key, e.g. "0:r0=0; 1:r0=0;" or
 * "1:r0=0; y=2;", into buf[n]; index == count gives "impossible;". */
void litmus_outcome_key(const litmus_test *t, unsigned index, char *buf, size_t n);

/* The catalogue's test names, space-separated, into buf[n] (for usage and
 * "unknown test" lines). */
void litmus_names(char *buf, size_t n);

/* Name of location l: "x", "y", "z", "w". */
const char *litmus_loc_name(int l);

#endif
