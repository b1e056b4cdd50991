/* bench_synth.c — synthetic benchmarks: the wrapper-overhead pair and a
 * knob-scaled dependent xorshift64 chain (a kernel whose work is exact, for the
 * gate's self-tests and the A/A and detection studies).
 *
 * synth/chain: 1000 dependent xorshift64 steps per iteration (x (100+p)/100
 *   with the knob), items = iterations.
 * bg_bench/overhead/c_batch/seed:88172645463325252: one xorshift64 step per
 *   iteration in a C batch loop; compare with bg_bench/overhead/cxx_loop/seed:...
 *   (same kernel, C++ range-for).  The argument is the xorshift64 seed, passed
 *   at run time so that the compiler cannot fold the chain; it is named
 *   (ArgName) so that the number in the name says what it is.
 */
#include "bench.h"

#include "buildgate/bg_bench.h"
#include "perf_knob.h"

static void chain_run(bg_bench_state *st, uint64_t n, void *ctx)
{
    (void)ctx;
    uint64_t steps = perf_knob_scale(1000);
    uint64_t x = 88172645463325252ULL;
    for (uint64_t i = 0; i < n; i++) {
        for (uint64_t k = 0; k < steps; k++)
            x = bg_bench_xorshift64(x);
        bg_bench_keep_u64(&x);
    }
    bg_bench_set_items_processed(st, (int64_t)n);
}

static void overhead_run(bg_bench_state *st, uint64_t n, void *ctx)
{
    (void)ctx;
    uint64_t x = (uint64_t)bg_bench_state_arg(st, 0);
    for (uint64_t i = 0; i < n; i++) {
        x = bg_bench_xorshift64(x);
        bg_bench_keep_u64(&x);
    }
    bg_bench_set_items_processed(st, (int64_t)n);
}

void perf_register_synth(void)
{
    bg_bench_register("synth/chain", chain_run);
    bg_bench *b = bg_bench_register("bg_bench/overhead/c_batch", overhead_run);
    bg_bench_arg(bg_bench_arg_name(b, "seed"), 88172645463325252LL);
    bg_bench_register_cxx_reference();
}
