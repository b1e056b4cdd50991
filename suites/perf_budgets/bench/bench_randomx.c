/* bench_randomx.c — RandomX through its C API (randomx.h, librandomx).
 *
 * Every name starts randomx/<version>/<variant>/: the RandomX version (v1,
 * v2: BG_PERF_RX_VERSION, which CMake reads from the linked library's
 * randomx.h, RANDOMX_FLAG_V2 declared or not) and the build variant it was
 * built as (BG_PERF_RX_VARIANT: a bg_randomx_variant() name, release by
 * default, -DBG_PERF_RANDOMX_VARIANT; "system" for the installed library when
 * no RandomX source is configured): docs/perf_budgets.md "Which RandomX".
 * A v2 library hashes with RANDOMX_FLAG_V2 (BG_PERF_RX_V2).
 * randomx/<v>/<variant>/hash/<mode>-<vm>-<aes>: hashes/s (items_per_second) for
 *   mode light (256 MiB cache) or full (2 GiB dataset), vm interp or jit,
 *   aes soft or hard.  The cache/dataset is built once per process per
 *   variant (not timed); each iteration hashes a 68-byte message whose first
 *   8 bytes are the iteration counter (the chain's message layout,
 *   docs/chain.md, without the chaining).
 *   The injected-slowdown knob (perf_knob.h, BG_PERF_SLOWDOWN_PCT=p) adds,
 *   after every hash, perf_knob_scale(u) - u dependent xorshift64 steps,
 *   where u is the variant's `knob_steps`: the number of steps whose
 *   instructions equal one hash's (callgrind Ir per hash on x86-64, RandomX
 *   1.1.10, docs/performance.md "RandomX instruction counts"), so p is p %
 *   more instructions per hash there (elsewhere about p %).  A hash itself
 *   cannot be cut into fractions; the filler is in the benchmark, not an
 *   LD_PRELOAD, and costs nothing when p = 0.  The filler is its own function,
 *   rx_knob_fill (never inlined), so a profile names it.
 *   The memory-latency knob (BG_PERF_CHASE_LOADS=N, 0..10000000, default 0;
 *   anything else is ignored) adds, after every hash, N dependent loads
 *   through a 64 MiB random cycle (one node per 64-byte line, Sattolo's
 *   algorithm, fixed seed; built once per process, not timed): rx_chase,
 *   never inlined, 3 instructions per load, each load a cache miss: a
 *   regression of memory latency that adds almost no instructions (the
 *   planted regression of bg-perf callgrind's estimated cycles,
 *   docs/perf_budgets.md "Memory behaviour").
 * randomx/<v>/<variant>/init/cache: cache initialisation (randomx_init_cache),
 *   seconds per iteration (manual time).
 * randomx/<v>/<variant>/init/dataset: dataset initialisation over all threads (from a
 *   JIT-compiled cache where the JIT exists), seconds (manual time); full-memory benchmarks and this one take >= 25 s and are
 *   run under the CTest label `long` only.
 * Huge pages (rx_thp.h): perf-bench measures RandomX as production runs it,
 *   its cache, scratchpad and dataset madvise(MADV_HUGEPAGE)d right after
 *   RandomX allocates them (BG_PERF_RX_THP=on, the default; =off measures
 *   RandomX's own unadvised allocation).  The names do not change; the JSON
 *   "context" says which: "randomx_thp_advice" (on|off) and "thp_enabled"
 *   (the host's mode: always|madvise|never|unavailable: why), and every hash
 *   benchmark's label says what the kernel gave:
 *   "thp <on|off>: cache <N> MiB huge, scratchpad <K> KiB huge" (AnonHugePages
 *   of those mappings after the run, /proc/self/smaps; "?" where unreadable).
 * A variant the library or CPU refuses (randomx_alloc_* / create_vm NULL)
 * reports a benchmark error naming the flags.  A JIT variant on a host that
 * forbids W+X memory (bg_wx.h) is skipped with that reason
 * (SkipWithError: "this host forbids W+X memory; the JIT cannot run"), and
 * the dataset is then built from an interpreted cache.  RandomX calls run
 * under bg_guard.h: an exception or abort inside RandomX becomes the
 * benchmark's error ("perf-bench: RandomX failed: <call>: <why>"), not
 * the end of the process.
 */
#define _POSIX_C_SOURCE 200809L
#include "bench.h"

#include <pthread.h>
#include <randomx.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "buildgate/bg_bench.h"
#include "buildgate/bg_guard.h"
#include "buildgate/bg_wx.h"
#include "perf_knob.h"
#include "rx_thp.h"
#include "rx_chase.h"

static const char rx_key[] = "relay-jit-profile-fixed-key-v1";

#ifndef BG_PERF_RX_VERSION
#error "BG_PERF_RX_VERSION (v1, v2) and BG_PERF_RX_VARIANT come from suites/perf_budgets/CMakeLists.txt"
#endif
/* randomx/<version>/<variant>/: every benchmark name's first segments */
#define RX_PREFIX "randomx/" BG_PERF_RX_VERSION "/" BG_PERF_RX_VARIANT "/"

typedef struct rx_variant {
    const char *name;
    int full, jit, hard_aes;
    uint64_t knob_steps; /* xorshift64 steps with the instructions of one hash (header) */
} rx_variant;

/* knob_steps: Ir of one light-mode hard-AES hash (Ir(2) - Ir(1) under
 * callgrind, x86-64, RandomX 1.1.10) over the 12 Ir of one filler step
 * (measured: BG_PERF_SLOWDOWN_PCT=100 gave 12.000 Ir per added step); the
 * soft-AES and full-memory variants reuse their light hard-AES value
 * (approximate). */
#define RX_STEP_IR 12
#define RX_INTERP_STEPS (1421223374ULL / RX_STEP_IR)
#define RX_JIT_STEPS (82123333ULL / RX_STEP_IR)
static const rx_variant rx_variants[] = {
    {RX_PREFIX "hash/light-interp-soft", 0, 0, 0, RX_INTERP_STEPS},
    {RX_PREFIX "hash/light-interp-hard", 0, 0, 1, RX_INTERP_STEPS},
    {RX_PREFIX "hash/light-jit-soft", 0, 1, 0, RX_JIT_STEPS},
    {RX_PREFIX "hash/light-jit-hard", 0, 1, 1, RX_JIT_STEPS},
    {RX_PREFIX "hash/full-interp-soft", 1, 0, 0, RX_INTERP_STEPS},
    {RX_PREFIX "hash/full-interp-hard", 1, 0, 1, RX_INTERP_STEPS},
    {RX_PREFIX "hash/full-jit-soft", 1, 1, 0, RX_JIT_STEPS},
    {RX_PREFIX "hash/full-jit-hard", 1, 1, 1, RX_JIT_STEPS},
};

/* What hash_run gets: the VM, the knob's extra filler steps per hash and
 * the chase knob's loads per hash. */
typedef struct rx_ctx {
    randomx_vm *vm;
    uint64_t extra, chase;
    rx_thp_region cache, scratchpad; /* for the label (rx_thp.h) */
} rx_ctx;

/* One cache (per JIT flag) and one dataset per process: built on first use.
 * A failed build is not retried: rx_why[] keeps the reason for every
 * benchmark that needs it. */
static pthread_mutex_t rx_lock = PTHREAD_MUTEX_INITIALIZER;
static randomx_cache *rx_caches[2];
static rx_thp_region rx_cache_regions[2]; /* the caches' memory (rx_thp.h) */
static randomx_dataset *rx_dataset;
static char rx_why[3][400]; /* [jit]: why cache jit is missing; [2]: the dataset */

/* The chase knob's cycle (rx_chase.h), built once per process, and where
 * its walk stands. */
static uint64_t *rx_chase_lines;
static uint64_t rx_chase_at;

static uint64_t rx_chase_loads(void)
{
    const char *s = getenv("BG_PERF_CHASE_LOADS");
    if (!s || !*s)
        return 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    return *end || v > 10000000ULL ? 0 : (uint64_t)v; /* documented range; else ignored */
}

/* Builds the cycle once (under rx_lock); 0 when it cannot be allocated. */
static int rx_chase_build(void)
{
    int ok;
    pthread_mutex_lock(&rx_lock);
    if (!rx_chase_lines)
        rx_chase_lines = rx_chase_make();
    ok = rx_chase_lines != NULL;
    pthread_mutex_unlock(&rx_lock);
    return ok;
}

/* The slowdown knob's work: n dependent xorshift64 steps. */
__attribute__((noinline)) static uint64_t rx_knob_fill(uint64_t fill, uint64_t n)
{
    for (uint64_t k = 0; k < n; k++)
        fill = bg_bench_xorshift64(fill);
    return fill;
}

static randomx_flags argon2_flags(void)
{
    return (randomx_flags)(randomx_get_flags() & RANDOMX_FLAG_ARGON2);
}

/* The RandomX calls that can throw or abort, run under bg_guard_call. */
typedef struct rx_call {
    randomx_flags flags;
    randomx_cache *cache;
    randomx_dataset *dataset;
    randomx_vm *vm;
} rx_call;

/* The allocations are bracketed by rx_thp_begin/end (huge page advice). */
static rx_thp_region rx_last_region;

static void do_alloc_cache(void *a)
{
    rx_call *c = a;
    rx_thp_begin();
    c->cache = randomx_alloc_cache(c->flags);
    rx_last_region = rx_thp_end();
}

static void do_init_cache(void *a)
{
    rx_call *c = a;
    randomx_init_cache(c->cache, rx_key, sizeof rx_key - 1);
}

static void do_alloc_dataset(void *a)
{
    rx_call *c = a;
    rx_thp_begin();
    c->dataset = randomx_alloc_dataset(c->flags);
    rx_last_region = rx_thp_end();
}

static void do_create_vm(void *a)
{
    rx_call *c = a;
    rx_thp_begin(); /* the scratchpad (2 MiB) */
    c->vm = randomx_create_vm(c->flags, c->cache, c->dataset);
    rx_last_region = rx_thp_end();
}

/* A cache with key rx_key, or NULL with the reason in why (n bytes). */
static randomx_cache *rx_cache(int jit, char *why, size_t n)
{
    pthread_mutex_lock(&rx_lock);
    if (!rx_caches[jit] && !rx_why[jit][0]) {
        rx_call c = {(randomx_flags)(argon2_flags() | (jit ? RANDOMX_FLAG_JIT : 0)), NULL, NULL,
                     NULL};
        if (jit && !bg_wx_why(0, rx_why[jit], sizeof rx_why[jit]))
            ; /* the host forbids W+X memory: reason stored */
        else if (bg_guard_call("RandomX", "randomx_alloc_cache", do_alloc_cache, &c) ||
                 (rx_cache_regions[jit] = rx_last_region,
                  c.cache && bg_guard_call("RandomX", "randomx_init_cache", do_init_cache, &c)))
            snprintf(rx_why[jit], sizeof rx_why[jit], "%s", bg_last_error());
        else if (!c.cache)
            snprintf(rx_why[jit], sizeof rx_why[jit], "randomx_alloc_cache(%d) returned NULL",
                     (int)c.flags);
        else
            rx_caches[jit] = c.cache;
    }
    randomx_cache *cache = rx_caches[jit];
    snprintf(why, n, "%s", rx_why[jit]);
    pthread_mutex_unlock(&rx_lock);
    return cache;
}

typedef struct ds_job {
    randomx_dataset *ds;
    randomx_cache *cache;
    unsigned long start, count;
} ds_job;

static void *ds_worker(void *arg)
{
    ds_job *j = arg;
    randomx_init_dataset(j->ds, j->cache, j->start, j->count);
    return NULL;
}

/* Initialises ds from cache with up to 16 threads; returns seconds taken. */
static double rx_init_dataset(randomx_dataset *ds, randomx_cache *cache)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned nt = ncpu < 1 ? 1 : ncpu > 16 ? 16 : (unsigned)ncpu;
    unsigned long total = randomx_dataset_item_count(), per = total / nt;
    pthread_t th[16];
    ds_job jobs[16];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    bg_guard_region_begin("RandomX", "randomx_init_dataset"); /* worker threads too */
    for (unsigned i = 0; i < nt; i++) {
        jobs[i] = (ds_job){ds, cache, i * per, i + 1 == nt ? total - i * per : per};
        if (pthread_create(&th[i], NULL, ds_worker, &jobs[i]) != 0)
            ds_worker(&jobs[i]), th[i] = 0;
    }
    for (unsigned i = 0; i < nt; i++)
        if (th[i])
            pthread_join(th[i], NULL);
    bg_guard_region_end();
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
}

/* 1 when the library offers a JIT here: the dataset is then built from a
 * JIT-compiled cache (its superscalar programs compiled), several times
 * faster than from an interpreted one. */
static int rx_jit_available(void)
{
    char why[400];
    return (randomx_get_flags() & RANDOMX_FLAG_JIT) != 0 && bg_wx_why(0, why, sizeof why);
}

/* The full-memory dataset, or NULL with the reason in why (n bytes). */
static randomx_dataset *rx_full_dataset(char *why, size_t n)
{
    randomx_cache *cache = rx_cache(rx_jit_available(), why, n);
    pthread_mutex_lock(&rx_lock);
    if (!rx_dataset && cache && !rx_why[2][0]) {
        rx_call c = {argon2_flags(), NULL, NULL, NULL};
        if (bg_guard_call("RandomX", "randomx_alloc_dataset", do_alloc_dataset, &c))
            snprintf(rx_why[2], sizeof rx_why[2], "%s", bg_last_error());
        else if (!c.dataset)
            snprintf(rx_why[2], sizeof rx_why[2], "cannot allocate the 2 GiB dataset");
        else
            rx_init_dataset(rx_dataset = c.dataset, cache);
    }
    randomx_dataset *d = rx_dataset;
    if (cache)
        snprintf(why, n, "%s", rx_why[2]);
    pthread_mutex_unlock(&rx_lock);
    return d;
}

static void *hash_setup(bg_bench_state *st, void *user)
{
    const rx_variant *v = user;
    randomx_flags f = (randomx_flags)((v->jit ? RANDOMX_FLAG_JIT : 0) |
                                      (v->hard_aes ? RANDOMX_FLAG_HARD_AES : 0) |
                                      (v->full ? RANDOMX_FLAG_FULL_MEM : 0));
#if defined(BG_PERF_RX_V2) && defined(RANDOMX_FLAG_V2)
    f = (randomx_flags)(f | RANDOMX_FLAG_V2); /* a v2 library: its v2 programs */
#endif
    char why[400] = "";
    if (v->jit && !bg_wx_why(0, why, sizeof why)) {
        bg_bench_error(st, why); /* a skip: this host cannot run any JIT variant */
        return NULL;
    }
    randomx_cache *cache = v->full ? NULL : rx_cache(v->jit, why, sizeof why);
    randomx_dataset *ds = v->full ? rx_full_dataset(why, sizeof why) : NULL;
    rx_call c = {f, cache, ds, NULL};
    pthread_mutex_lock(&rx_lock); /* rx_thp_begin/end's state */
    int failed = (cache || ds) && bg_guard_call("RandomX", "randomx_create_vm", do_create_vm, &c);
    rx_thp_region scratchpad = rx_last_region;
    pthread_mutex_unlock(&rx_lock);
    if (failed)
        snprintf(why, sizeof why, "%s", bg_last_error());
    else if ((cache || ds) && !c.vm)
        snprintf(why, sizeof why, "randomx: cannot create a VM with flags %d", (int)f);
    rx_ctx *x = c.vm ? malloc(sizeof *x) : NULL;
    if (c.vm && !x) {
        randomx_destroy_vm(c.vm);
        snprintf(why, sizeof why, "out of memory");
    }
    uint64_t chase = rx_chase_loads();
    if (x && chase && !rx_chase_build()) {
        randomx_destroy_vm(c.vm);
        free(x);
        x = NULL;
        snprintf(why, sizeof why, "BG_PERF_CHASE_LOADS: cannot allocate the 64 MiB cycle");
    }
    if (!x)
        bg_bench_error(st, why);
    else
        *x = (rx_ctx){c.vm, perf_knob_scale(v->knob_steps) - v->knob_steps, chase,
                      v->full ? (rx_thp_region){0, 0, 0} : rx_cache_regions[v->jit], scratchpad};
    return x;
}

/* "<n> <unit>" of huge pages in r, "?" when unreadable */
static void huge_text(char *out, size_t n, rx_thp_region r, long per)
{
    long kib = rx_thp_huge_kib(r);
    if (kib < 0)
        snprintf(out, n, "?");
    else
        snprintf(out, n, "%ld %s", kib / per, per == 1024 ? "MiB" : "KiB");
}

static void hash_teardown(bg_bench_state *st, void *ctx)
{
    rx_ctx *x = ctx;
    if (x) {
        char c[32], s[32], label[128];
        huge_text(c, sizeof c, x->cache, 1024);
        huge_text(s, sizeof s, x->scratchpad, 1);
        snprintf(label, sizeof label, "thp %s: cache %s huge, scratchpad %s huge",
                 rx_thp_policy() == 1 ? "on" : "off", c, s);
        bg_bench_set_label(st, label);
        randomx_destroy_vm(x->vm);
    }
    free(x);
}

static void hash_run(bg_bench_state *st, uint64_t n, void *ctx)
{
    rx_ctx *x = ctx;
    uint8_t msg[68] = {0}, out[RANDOMX_HASH_SIZE];
    uint64_t fill = 88172645463325252ULL;
    bg_guard_region_begin("RandomX", "randomx_calculate_hash"); /* abort/crash: exit 7 */
    for (uint64_t i = 0; i < n; i++) {
        memcpy(msg, &i, sizeof i);
        randomx_calculate_hash(x->vm, msg, sizeof msg, out);
        if (x->extra) /* the knob: p % more work */
            fill = rx_knob_fill(fill, x->extra);
        if (x->chase) /* the memory-latency knob */
            rx_chase_at = rx_chase(rx_chase_lines, rx_chase_at, x->chase);
    }
    bg_guard_region_end();
    bg_bench_keep_u64(&fill);
    bg_bench_keep_u64(&rx_chase_at);
    bg_bench_keep(out, sizeof out);
    bg_bench_set_items_processed(st, (int64_t)n);
}

static void cache_init_run(bg_bench_state *st, uint64_t n, void *ctx)
{
    (void)ctx;
    rx_call c = {argon2_flags(), NULL, NULL, NULL};
    if (bg_guard_call("RandomX", "randomx_alloc_cache", do_alloc_cache, &c)) {
        bg_bench_error(st, bg_last_error());
        return;
    }
    if (!c.cache) {
        bg_bench_error(st, "randomx_alloc_cache returned NULL");
        return;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (uint64_t i = 0; i < n; i++)
        if (bg_guard_call("RandomX", "randomx_init_cache", do_init_cache, &c)) {
            bg_bench_error(st, bg_last_error()); /* the cache is left as it is (unknown state) */
            return;
        }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    randomx_release_cache(c.cache);
    bg_bench_set_batch_time(st, (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
}

static void dataset_init_run(bg_bench_state *st, uint64_t n, void *ctx)
{
    (void)ctx;
    char why[400];
    randomx_cache *cache = rx_cache(rx_jit_available(), why, sizeof why);
    rx_call c = {argon2_flags(), NULL, NULL, NULL};
    if (cache && bg_guard_call("RandomX", "randomx_alloc_dataset", do_alloc_dataset, &c))
        snprintf(why, sizeof why, "%s", bg_last_error());
    else if (cache && !c.dataset)
        snprintf(why, sizeof why, "randomx: cannot allocate the 2 GiB dataset");
    randomx_dataset *ds = c.dataset;
    if (!ds) {
        bg_bench_error(st, why);
        return;
    }
    double s = 0;
    for (uint64_t i = 0; i < n; i++)
        s += rx_init_dataset(ds, cache);
    randomx_release_dataset(ds);
    bg_bench_set_batch_time(st, s);
}

void perf_register_randomx(void)
{
    if (rx_thp_policy() < 0) {
        fprintf(stderr, "buildgate: perf-bench: BG_PERF_RX_THP must be on or off\n");
        exit(2);
    }
    bg_bench_context("randomx_thp_advice", rx_thp_policy() == 1 ? "on" : "off");
    bg_bench_context("thp_enabled", rx_thp_host());
    for (size_t i = 0; i < sizeof rx_variants / sizeof rx_variants[0]; i++) {
        bg_bench *b = bg_bench_register(rx_variants[i].name, hash_run);
        bg_bench_user(b, (void *)&rx_variants[i]);
        bg_bench_setup(b, hash_setup, hash_teardown);
        bg_bench_unit_ms(b);
    }
    bg_bench_iterations(bg_bench_unit_ms(bg_bench_manual_time(
                            bg_bench_register(RX_PREFIX "init/cache", cache_init_run))), 1);
    bg_bench_iterations(bg_bench_unit_ms(bg_bench_manual_time(
                            bg_bench_register(RX_PREFIX "init/dataset", dataset_init_run))), 1);
}
