/* litmus_harness.h — runs one litmus test many times, litmus7 style.
 *
 * Method (after litmus7, herdtools7/litmus, "Litmus: running tests against
 * hardware", Alglave, Maranget, Sarkar, Sewell, TACAS 2011):
 *   - the test's threads are created once per run and pinned to distinct
 *     CPUs (Linux pthread_setaffinity_np, only CPUs of the affinity mask the
 *     process inherited, so `taskset -c 0` as a runner holds; macOS:
 *     QoS user-interactive, the OS has no affinity API); with more threads
 *     than available CPUs they share CPUs (oversubscribed: fewer
 *     simultaneous accesses, less power); a pin the system refuses leaves
 *     the threads unpinned (one stderr line per process);
 *   - a round holds `instances` independent copies of the test; every
 *     location of every copy has its own 128-byte line (a cache line on
 *     x86-64 and most arm64; Apple M-series use 128 bytes), so copies never
 *     share a line;
 *   - each thread sweeps all copies in order; with sync "user" it waits at
 *     every copy until all threads have reached it (litmus7 -barrier user),
 *     which keeps the threads on the same copy at the same time;
 *   - a spin barrier (sense-reversing counter; spins with PAUSE/YIELD, then
 *     sched_yield) separates rounds; after it every thread counts the
 *     outcomes of its own slice of copies and resets it, in parallel.
 * Iterations are copies run; a run stops after `iterations` or after the
 * time budget, whichever comes first (the result says which).
 */
#ifndef LITMUS_HARNESS_H
#define LITMUS_HARNESS_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "litmus_access.h"
#include "litmus_catalog.h"

#define LITMUS_LINE 128 /* bytes per location slot and per shared counter */

typedef struct litmus_round {
    unsigned char *mem;                  /* n * nlocs slots of LITMUS_LINE bytes */
    size_t n;                            /* copies per round */
    int nlocs;
    int nthreads;
    int sync;                            /* 1: wait for all threads at every copy */
    int split;                           /* 1: locations straddle a line (SPLIT tests) */
    uint64_t *reg[LITMUS_MAX_REGS];   /* reg[k][i]: register k of copy i */
    _Atomic uint64_t *progress[LITMUS_MAX_THREADS]; /* one line each */
} litmus_round;

/* One thread's sweep over all copies of a round; base = round * n. */
typedef void (*litmus_loop)(const litmus_round *r, uint64_t base);

/* Location l of copy i: the start of its slot, or LITMUS_SPLIT_OFFSET into it
 * (SPLIT tests: across the 64-byte boundary; only the locked RMWs of
 * litmus_access.h and memcpy touch such a location). */
#define LITMUS_LOC(r, i, l)                                                               \
    ((_Atomic uint64_t *)(void *)((r)->mem + ((i) * (size_t)(r)->nlocs + (size_t)(l)) * LITMUS_LINE + \
                                  ((r)->split ? LITMUS_SPLIT_OFFSET : 0)))

/* Per-copy rendezvous (sync "user"): announce copy i of the round at base,
 * wait until every thread has announced it. */
void litmus_sync(const litmus_round *r, int t, size_t i, uint64_t base);

typedef enum litmus_sync_mode { LITMUS_SYNC_AUTO, LITMUS_SYNC_USER, LITMUS_SYNC_NONE } litmus_sync_mode;

/* How threads are placed on the CPUs of the inherited affinity mask (after
 * litmus7's -affinity and -i): INCR puts thread t on the (t * incr mod n)-th
 * CPU of the mask (incr 1: the default, distinct CPUs in mask order);
 * RANDOM on the CPUs of a random permutation of the mask (drawn per run from
 * seed); NONE leaves them to the scheduler.  Where the OS has no affinity API
 * (macOS) every mode is NONE, and the result says so. */
typedef enum litmus_affinity { LITMUS_AFF_INCR, LITMUS_AFF_RANDOM, LITMUS_AFF_NONE } litmus_affinity;

typedef struct litmus_params {
    uint64_t iterations;       /* copies to run, >= 1 */
    litmus_affinity affinity;
    int incr;                  /* INCR's step, >= 1 */
    uint64_t seed;             /* RANDOM's seed (the run's index is added) */
    size_t instances;          /* copies per round, >= 1 */
    double time_budget_s;      /* stop after this many seconds (> 0) */
    litmus_sync_mode sync;  /* AUTO: USER unless oversubscribed, then NONE */
} litmus_params;

typedef struct litmus_result {
    uint64_t iterations;       /* copies run */
    uint64_t rounds;
    size_t instances;
    double seconds;            /* wall time of the rounds (threads created, not yet joined) */
    int ncpu;                  /* CPUs available (litmus_available_cpus) */
    int pinned;                /* 1 when every thread got its own CPU */
    int cpu[LITMUS_MAX_THREADS]; /* the CPU thread t was pinned to, -1: unpinned */
    int affinity_api;          /* 0: the OS has none (macOS), threads unpinned */
    int oversubscribed;        /* threads > CPUs */
    int sync_user;             /* per-copy sync used */
    int by_time;               /* stopped by the time budget */
    uint64_t *histogram;       /* litmus_outcome_count(t) + 1 counters (last: impossible) */
} litmus_result;

/* Runs test t with thread loops loops[0..nthreads-1].  Returns 0, or -1 on
 * allocation/thread-creation failure (errno-style message on stderr).
 * The caller frees out->histogram. */
int litmus_run(const litmus_test *t, const litmus_loop *loops,
               const litmus_params *p, litmus_result *out);

/* CPUs this process may run on: on Linux the count of its sched_getaffinity
 * mask (what taskset or a cpuset leaves it), else the online CPUs; >= 1. */
int litmus_available_cpus(void);

/* The compiled thread loops of test `name` for access a, or NULL. */
const litmus_loop *litmus_loops(const char *name, litmus_access a);

#endif
