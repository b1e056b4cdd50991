/* litmus_harness.c — threads, barrier, copies and outcome counting (see
 * litmus_harness.h for the method and its source). */
#if defined(__linux__)
#define _GNU_SOURCE /* pthread_attr_setaffinity_np, CPU_SET */
#elif defined(__APPLE__)
#define _DARWIN_C_SOURCE /* pthread_set_qos_class_self_np beside _POSIX_C_SOURCE */
#endif
#include "litmus_harness.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#if defined(__APPLE__)
#include <pthread/qos.h>
#endif

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield" ::: "memory");
#endif
}

/* Spins on cond; after 256 tries gives the CPU away (oversubscribed runs,
 * runners that serialise threads). */
#define SPIN_UNTIL(cond)                                                              \
    do {                                                                              \
        unsigned spins_ = 0;                                                          \
        while (!(cond)) {                                                             \
            if (++spins_ < 256)                                                       \
                cpu_relax();                                                          \
            else                                                                      \
                sched_yield();                                                        \
        }                                                                             \
    } while (0)

void litmus_sync(const litmus_round *r, int t, size_t i, uint64_t base)
{
    const uint64_t want = base + i + 1;
    atomic_store_explicit(r->progress[t], want, memory_order_relaxed);
    for (int u = 0; u < r->nthreads; u++)
        if (u != t)
            SPIN_UNTIL(atomic_load_explicit(r->progress[u], memory_order_relaxed) >= want);
}

typedef struct barrier {
    _Alignas(LITMUS_LINE) atomic_uint count;
    _Alignas(LITMUS_LINE) atomic_uint generation;
    atomic_uint n;
} barrier;

static void barrier_wait(barrier *b)
{
    unsigned g = atomic_load_explicit(&b->generation, memory_order_acquire);
    if (atomic_fetch_add_explicit(&b->count, 1, memory_order_acq_rel) + 1 ==
        atomic_load_explicit(&b->n, memory_order_relaxed)) {
        atomic_store_explicit(&b->count, 0, memory_order_relaxed);
        atomic_fetch_add_explicit(&b->generation, 1, memory_order_acq_rel);
        return;
    }
    SPIN_UNTIL(atomic_load_explicit(&b->generation, memory_order_acquire) != g);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct shared {
    const litmus_test *test;
    const litmus_loop *loops;
    const litmus_params *params;
    litmus_round round;
    barrier bar;
    _Alignas(LITMUS_LINE) atomic_int stop;
    uint64_t rounds_target;
    uint64_t rounds_done;   /* thread 0 only */
    double t0, t1;
    int by_time;
    unsigned noutcomes;     /* litmus_outcome_count + 1 */
    uint64_t *hist;         /* nthreads * noutcomes */
} shared;

typedef struct worker {
    shared *s;
    int t;
} worker;

/* A value as the test wrote it: in SPLIT tests v * LITMUS_SPLIT_K, and a word
 * whose halves differ (torn) becomes LITMUS_VALUES (an impossible outcome). */
static unsigned long long decode(const litmus_round *r, uint64_t w)
{
    if (!r->split)
        return w;
    return (w >> 32) == (w & 0xffffffffu) ? (w & 0xffffffffu) : LITMUS_VALUES;
}

/* Counts and resets copies [lo, hi) of the round into hist (memcpy: a SPLIT
 * location is not 8-byte aligned; the threads are stopped at the barrier). */
static void tally(const shared *s, size_t lo, size_t hi, uint64_t *hist)
{
    const litmus_test *t = s->test;
    const litmus_round *r = &s->round;
    const uint64_t zero = 0;
    for (size_t i = lo; i < hi; i++) {
        unsigned long long v[LITMUS_MAX_OBS];
        for (int o = 0; o < t->nobs; o++) {
            uint64_t w;
            if (t->obs[o].reg >= 0)
                w = r->reg[t->obs[o].reg][i];
            else
                memcpy(&w, (const void *)LITMUS_LOC(r, i, t->obs[o].loc), sizeof w);
            v[o] = decode(r, w);
        }
        hist[litmus_outcome_index(t, v)]++;
        for (int l = 0; l < t->nlocs; l++)
            memcpy((void *)LITMUS_LOC(r, i, l), &zero, sizeof zero);
        for (int k = 0; k < t->nregs; k++)
            r->reg[k][i] = 0;
    }
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    shared *s = w->s;
    const int t = w->t, nt = s->test->nthreads;
    const size_t n = s->round.n;
    const size_t lo = n * (size_t)t / (size_t)nt, hi = n * (size_t)(t + 1) / (size_t)nt;
    uint64_t *hist = s->hist + (size_t)t * s->noutcomes;
#if defined(__APPLE__)
    pthread_set_qos_class_self_np(QOS_CLASS_USER_INTERACTIVE, 0);
#endif
    for (uint64_t round = 0;; round++) {
        barrier_wait(&s->bar);
        if (atomic_load_explicit(&s->stop, memory_order_relaxed))
            break;
        s->loops[t](&s->round, round * n);
        barrier_wait(&s->bar);
        tally(s, lo, hi, hist);
        if (t == 0) {
            s->rounds_done = round + 1;
            double now = now_s();
            if (s->rounds_done >= s->rounds_target) {
                s->t1 = now;
                atomic_store_explicit(&s->stop, 1, memory_order_relaxed);
            } else if (now - s->t0 >= s->params->time_budget_s) {
                s->t1 = now;
                s->by_time = 1;
                atomic_store_explicit(&s->stop, 1, memory_order_relaxed);
            }
        }
    }
    return NULL;
}

static void *alloc_lines(size_t bytes)
{
    void *p = NULL;
    size_t rounded = (bytes + LITMUS_LINE - 1) / LITMUS_LINE * LITMUS_LINE;
    if (posix_memalign(&p, LITMUS_LINE, rounded ? rounded : LITMUS_LINE) != 0)
        return NULL;
    memset(p, 0, rounded ? rounded : LITMUS_LINE);
    return p;
}

/* The CPUs this process may run on: on Linux the sched_getaffinity mask it
 * inherited (taskset, a cpuset container), so the threads are pinned only
 * inside it; elsewhere (macOS has no affinity API) the online CPUs, unpinned. */
typedef struct cpu_avail {
    int n;        /* CPUs available, >= 1 */
#if defined(__linux__)
    int have_mask; /* 1: mask holds the inherited affinity */
    cpu_set_t mask;
#endif
} cpu_avail;

static void available_cpus(cpu_avail *c)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    c->n = n > 0 ? (int)n : 1;
#if defined(__linux__)
    c->have_mask = sched_getaffinity(0, sizeof c->mask, &c->mask) == 0 && CPU_COUNT(&c->mask) > 0;
    if (c->have_mask)
        c->n = CPU_COUNT(&c->mask);
#endif
}

int litmus_available_cpus(void)
{
    cpu_avail c;
    available_cpus(&c);
    return c.n;
}

#if defined(__linux__)
/* The k-th CPU (mod the count) of the inherited mask. */
static int nth_cpu(const cpu_avail *c, int k)
{
    k %= c->n;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, &c->mask) && k-- == 0)
            return cpu;
    return -1;
}
#endif

/* The index into the inherited mask of thread t's CPU under the params'
 * affinity mode (perm: RANDOM's permutation of 0..n-1), or -1: unpinned. */
static int place(const litmus_params *p, const int *perm, int n, int t)
{
    if (p->affinity == LITMUS_AFF_NONE)
        return -1;
    if (p->affinity == LITMUS_AFF_RANDOM)
        return perm[t % n];
    return (int)(((long long)t * (p->incr > 0 ? p->incr : 1)) % n);
}

/* RANDOM's permutation of 0..n-1 (n <= CPU_SETSIZE), from seed: Fisher-Yates
 * over a splitmix64 stream (portable; no libc random state). */
static void permutation(int *perm, int n, uint64_t seed)
{
    for (int i = 0; i < n; i++)
        perm[i] = i;
    for (int i = n - 1; i > 0; i--) {
        uint64_t z = (seed += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        z ^= z >> 31;
        int j = (int)(z % (uint64_t)(i + 1)), tmp = perm[i];
        perm[i] = perm[j];
        perm[j] = tmp;
    }
}

/* Creates thread t, pinned on Linux to the mask CPU index `slot` (place());
 * 1 when pinned, *cpu_out the CPU (-1 unpinned).  A pin the system refuses
 * (EINVAL/EPERM, e.g. a cpuset that changed) leaves the thread unpinned and
 * sets *refused. */
static int start_thread(pthread_t *th, worker *w, const cpu_avail *cpus, int slot, int *cpu_out,
                        int *refused, int *err)
{
    pthread_attr_t attr;
    int pinned = 0;
    *cpu_out = -1;
    pthread_attr_init(&attr);
#if defined(__linux__)
    int cpu = cpus->have_mask && slot >= 0 ? nth_cpu(cpus, slot) : -1;
    if (cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        pinned = pthread_attr_setaffinity_np(&attr, sizeof set, &set) == 0;
        *refused |= !pinned;
        if (pinned)
            *cpu_out = cpu;
    }
#else
    (void)cpus;
    (void)slot;
    (void)refused;
#endif
    *err = pthread_create(th, &attr, worker_main, w);
    if (*err != 0 && pinned) { /* affinity refused at start (e.g. a restricted cpuset) */
        pthread_attr_destroy(&attr);
        pthread_attr_init(&attr);
        pinned = 0;
        *cpu_out = -1;
        *refused = 1;
        *err = pthread_create(th, &attr, worker_main, w);
    }
    pthread_attr_destroy(&attr);
    return pinned;
}

#define CPU_PERM_MAX 1024 /* CPUs a RANDOM permutation covers */

static void free_shared(shared *s)
{
    free(s->round.mem);
    for (int k = 0; k < LITMUS_MAX_REGS; k++)
        free(s->round.reg[k]);
    for (int t = 0; t < LITMUS_MAX_THREADS; t++)
        free(s->round.progress[t]);
    free(s->hist);
    free(s);
}

int litmus_run(const litmus_test *t, const litmus_loop *loops,
               const litmus_params *p, litmus_result *out)
{
    memset(out, 0, sizeof *out);
    shared *s = alloc_lines(sizeof *s);
    if (!s)
        return -1;
    cpu_avail cpus;
    available_cpus(&cpus);
    const int nt = t->nthreads, ncpu = cpus.n;
    size_t n = p->instances;
    if ((uint64_t)n > p->iterations)
        n = (size_t)p->iterations;
    s->test = t;
    s->loops = loops;
    s->params = p;
    s->round.n = n;
    s->round.nlocs = t->nlocs;
    s->round.nthreads = nt;
    s->round.split = t->set == LITMUS_SET_SPLIT;
    out->oversubscribed = nt > ncpu;
    s->round.sync = p->sync == LITMUS_SYNC_USER || (p->sync == LITMUS_SYNC_AUTO && !out->oversubscribed);
    s->round.mem = alloc_lines(n * (size_t)t->nlocs * LITMUS_LINE);
    int ok = s->round.mem != NULL;
    for (int k = 0; k < t->nregs; k++)
        ok &= (s->round.reg[k] = alloc_lines(n * sizeof(uint64_t))) != NULL;
    for (int k = 0; k < nt; k++)
        ok &= (s->round.progress[k] = alloc_lines(LITMUS_LINE)) != NULL;
    s->noutcomes = litmus_outcome_count(t) + 1;
    ok &= (s->hist = calloc((size_t)nt * s->noutcomes, sizeof(uint64_t))) != NULL;
    if (!ok) {
        free_shared(s);
        fprintf(stderr, "buildgate: litmus-probe: out of memory for %zu copies\n", n);
        return -1;
    }
    atomic_init(&s->bar.n, (unsigned)nt);
    s->rounds_target = (p->iterations + n - 1) / n;

    pthread_t th[LITMUS_MAX_THREADS];
    worker w[LITMUS_MAX_THREADS];
    int pinned = 1, started = 0, err = 0, refused = 0;
    int perm[CPU_PERM_MAX]; /* RANDOM only */
    const int nperm = ncpu < CPU_PERM_MAX ? ncpu : CPU_PERM_MAX;
    if (p->affinity == LITMUS_AFF_RANDOM)
        permutation(perm, nperm, p->seed);
    s->t0 = now_s();
    for (; started < nt; started++) {
        w[started].s = s;
        w[started].t = started;
        pinned &= start_thread(&th[started], &w[started], &cpus, place(p, perm, nperm, started),
                               &out->cpu[started], &refused, &err);
        if (err != 0)
            break;
    }
    if (err != 0) {
        /* the started threads wait in the first barrier: let them leave */
        atomic_store(&s->stop, 1);
        atomic_store(&s->bar.n, (unsigned)started + 1);
        barrier_wait(&s->bar);
        for (int k = 0; k < started; k++)
            pthread_join(th[k], NULL);
        free_shared(s);
        fprintf(stderr, "buildgate: litmus-probe: pthread_create: %s\n", strerror(err));
        return -1;
    }
    for (int k = 0; k < nt; k++)
        pthread_join(th[k], NULL);
    static int said; /* once per process */
    if (refused && !said++)
        fprintf(stderr, "buildgate: litmus-probe: the system refused a CPU pin (cpuset?): "
                        "threads run unpinned\n");

    out->histogram = calloc(s->noutcomes, sizeof(uint64_t));
    if (!out->histogram) {
        free_shared(s);
        return -1;
    }
    for (int k = 0; k < nt; k++)
        for (unsigned o = 0; o < s->noutcomes; o++)
            out->histogram[o] += s->hist[(size_t)k * s->noutcomes + o];
    out->rounds = s->rounds_done;
    out->iterations = s->rounds_done * n;
    out->instances = n;
    out->seconds = s->t1 - s->t0;
    out->ncpu = ncpu;
    for (int a = 0; a < nt; a++) /* "its own CPU": no two threads on one */
        for (int b = a + 1; b < nt; b++)
            pinned &= out->cpu[a] != out->cpu[b];
    out->pinned = pinned && !out->oversubscribed;
#if defined(__linux__)
    out->affinity_api = 1;
#endif
    out->sync_user = s->round.sync;
    out->by_time = s->by_time;
    free_shared(s);
    return 0;
}
