/* bg_bench.h — Google Benchmark from C (the project's one C++ file is bg_bench.cc).
 *
 * A C benchmark is a batch function: Google Benchmark decides how many
 * iterations a run needs (n), and the C side runs all n in one call, so the
 * wrapper adds one indirect call per run, not per iteration (the overhead
 * against the same loop written in C++ is measured in docs/performance.md).
 *
 *   static void xs_run(bg_bench_state *st, uint64_t n, void *ctx) {
 *       uint64_t x = bg_bench_arg(st, 0);
 *       for (uint64_t i = 0; i < n; i++) x = step(x);
 *       bg_bench_keep(&x, sizeof x);              // like benchmark::DoNotOptimize
 *       bg_bench_set_items_processed(st, n);
 *   }
 *   bg_bench *b = bg_bench_register("xorshift", xs_run);
 *   bg_bench_range(b, 8, 64);                     // Range(8, 64)
 *   bg_bench_threads(b, 2);
 *   return bg_bench_main(argc, argv);             // Initialize + RunSpecifiedBenchmarks
 *
 * Setup/teardown: setup(st, user) runs in every benchmark thread before its
 * timed region, returns the per-thread context handed to run() and teardown();
 * neither is timed.  Returning NULL from setup is allowed; to report a failure
 * call bg_bench_error(st, "why") (the run is then reported with
 * "error_occurred": true and run() is not called).
 *
 * Manual time: with bg_bench_manual_time(b), run() must call
 * bg_bench_set_batch_time(st, seconds) with the time of the whole batch.
 *
 * All functions that take a bg_bench * accept what bg_bench_register returned
 * and return it, so calls can be chained.  Names must be unique.
 * Source of the semantics: google/benchmark 1.7, the user guide in its docs folder.
 */
#ifndef BG_BENCH_H
#define BG_BENCH_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bg_bench bg_bench;             /* a registered benchmark (benchmark::Benchmark) */
typedef struct bg_bench_state bg_bench_state; /* one thread of one run (benchmark::State) */

/* Runs n >= 1 iterations of the benchmark; ctx is what setup returned (or the
 * user pointer given to bg_bench_user when there is no setup). */
typedef void (*bg_bench_fn)(bg_bench_state *st, uint64_t n, void *ctx);
typedef void *(*bg_bench_setup_fn)(bg_bench_state *st, void *user);
typedef void (*bg_bench_teardown_fn)(bg_bench_state *st, void *ctx);

/* Registers a benchmark; never NULL (aborts only on out-of-memory, as C++ new does). */
bg_bench *bg_bench_register(const char *name, bg_bench_fn run);

bg_bench *bg_bench_user(bg_bench *b, void *user);
bg_bench *bg_bench_setup(bg_bench *b, bg_bench_setup_fn setup, bg_bench_teardown_fn teardown);
bg_bench *bg_bench_arg(bg_bench *b, int64_t a);                 /* Arg(a) */
/* ArgName(name): the argument appears in the benchmark's name as
 * "<name>:<value>" ("c_batch/seed:88172645463325252"), not as a bare number. */
bg_bench *bg_bench_arg_name(bg_bench *b, const char *name);
bg_bench *bg_bench_range(bg_bench *b, int64_t lo, int64_t hi);  /* Range(lo, hi), powers of 8 */
bg_bench *bg_bench_dense_range(bg_bench *b, int64_t lo, int64_t hi, int step);
bg_bench *bg_bench_threads(bg_bench *b, int n);                 /* Threads(n) */
bg_bench *bg_bench_thread_range(bg_bench *b, int lo, int hi);   /* ThreadRange: lo, 2lo, ..., hi */
bg_bench *bg_bench_manual_time(bg_bench *b);                    /* UseManualTime() */
bg_bench *bg_bench_real_time(bg_bench *b);                      /* UseRealTime() */
bg_bench *bg_bench_repetitions(bg_bench *b, int n);             /* Repetitions(n) */
bg_bench *bg_bench_iterations(bg_bench *b, uint64_t n);         /* Iterations(n): fixed */
bg_bench *bg_bench_min_time(bg_bench *b, double seconds);       /* MinTime(s) */
bg_bench *bg_bench_unit_ms(bg_bench *b);                        /* Unit(kMillisecond) */

/* Inside run()/setup(): */
int64_t bg_bench_state_arg(const bg_bench_state *st, int i);   /* range(i) */
int bg_bench_thread_index(const bg_bench_state *st);
int bg_bench_thread_count(const bg_bench_state *st);
void bg_bench_set_items_processed(bg_bench_state *st, int64_t items);
void bg_bench_set_bytes_processed(bg_bench_state *st, int64_t bytes);
void bg_bench_set_batch_time(bg_bench_state *st, double seconds);   /* manual time only */
void bg_bench_pause(bg_bench_state *st);                             /* PauseTiming() */
void bg_bench_resume(bg_bench_state *st);                            /* ResumeTiming() */
void bg_bench_error(bg_bench_state *st, const char *msg);            /* SkipWithError() */
void bg_bench_set_label(bg_bench_state *st, const char *label);
/* benchmark::AddCustomContext(key, value): one more "key": "value" in the
 * run's "context" object (JSON) and header (console); call before
 * bg_bench_main.  A key given twice keeps its first value. */
void bg_bench_context(const char *key, const char *value);

/* User counters (benchmark::Counter flags). */
enum {
    BG_COUNTER_DEFAULT = 0,
    BG_COUNTER_RATE = 1,        /* divided by the run's time */
    BG_COUNTER_AVG_THREADS = 2, /* divided by the thread count */
    BG_COUNTER_AVG_ITERS = 8    /* divided by the iteration count */
};
void bg_bench_counter(bg_bench_state *st, const char *name, double value, int flags);

/* Keeps the compiler from deleting the computation that produced *p:
 * benchmark::DoNotOptimize's empty asm with a "memory" clobber, inline so it
 * costs no call (GCC/Clang; other compilers get an out-of-line call). */
void bg_bench_keep_slow(const void *p, size_t n);
#if defined(__GNUC__)
static inline void bg_bench_keep(const void *p, size_t n)
{
    (void)n;
    __asm__ volatile("" : : "r"(p) : "memory");
}
/* The same for one 64-bit value kept in a register (DoNotOptimize(T&)). */
static inline void bg_bench_keep_u64(uint64_t *v)
{
    __asm__ volatile("" : "+r,m"(*v) : : "memory");
}
#else
#define bg_bench_keep bg_bench_keep_slow
static inline void bg_bench_keep_u64(uint64_t *v)
{
    bg_bench_keep_slow(v, sizeof *v);
}
#endif

/* Registers, next to the C benchmark "bg_bench/overhead/c_batch" a caller
 * registers, the same xorshift64 kernel written as a C++ range-for loop:
 * "bg_bench/overhead/cxx_loop".  Used to measure the wrapper's overhead. */
void bg_bench_register_cxx_reference(void);

/* One xorshift64 step (Marsaglia 2003, "Xorshift RNGs", shifts 13, 7, 17):
 * the kernel both overhead benchmarks run. */
static inline uint64_t bg_bench_xorshift64(uint64_t x)
{
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
}

/* benchmark::Initialize + RunSpecifiedBenchmarks + Shutdown.  Accepts every
 * --benchmark_* flag; unknown flags -> one error line, exit code 2.  Extra flag
 * --bg_list_json prints the registered benchmark names as a JSON array.
 * Returns the process exit code: 0, 2 (usage), or 7 when a run reported an
 * error (so a crashing or erroring benchmark is never a silent pass). */
int bg_bench_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
